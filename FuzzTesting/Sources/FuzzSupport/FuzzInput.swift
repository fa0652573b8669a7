/// A cursor over one fuzz input: harnesses take a few leading bytes as parameters (framing, limits,
/// a chunking seed) and the rest as the payload, so every run is reproducible from the input alone.
/// A value type; not shared between threads.
public struct FuzzInput {
    public let bytes: UnsafeBufferPointer<UInt8>
    public private(set) var position = 0

    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        bytes = UnsafeBufferPointer(start: data, count: size)
    }

    /// The next byte, or 0 once the input is exhausted (short inputs still run).
    public mutating func takeByte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// Everything not taken yet.
    public var rest: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[min(position, bytes.count)...])
    }
}

/// SplitMix64: a tiny deterministic generator for chunk sizes derived from an input's seed byte.
public struct FuzzRandom {
    private var state: UInt64

    public init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 &+ 1 }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A chunk size in 1...(1 << 0..<10): mostly small, sometimes up to 1 KiB.
    public mutating func chunkSize() -> Int {
        let bits = Int(next() % 11)
        return 1 + Int(next() % UInt64(1 << bits))
    }
}
