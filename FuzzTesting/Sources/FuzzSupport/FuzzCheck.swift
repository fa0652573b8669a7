/// A failed invariant: prints what broke (libFuzzer shows it above the stack) and traps, so the
/// fuzzer saves the input as a crash. Any thread.
public func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                      file: StaticString = #fileID, line: UInt = #line) {
    if !condition() { fatalError("fuzz invariant violated: \(message())", file: file, line: line) }
}
