/// A tiny deterministic pseudo-random generator (SplitMix64): the same seed gives the same
/// sequence on every platform and Swift version, which keeps the demo catalog stable.
/// Not for anything secret. A value type; not shared between threads.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A value in `0..<bound` (the tiny modulo bias is irrelevant for demo data).
    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// One element of `choices`, which must not be empty.
    mutating func pick<T>(_ choices: [T]) -> T {
        choices[next(below: choices.count)]
    }
}
