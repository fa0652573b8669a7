/// Why a command stopped without doing its work: the message for stderr and the exit status.
/// Commands throw it and never end the process themselves; `main` prints the message
/// (`shop-rpc: message`) and ends the process with the status (`ShopCommand.main`).
struct CommandFailure: Error {
    /// 2 for a usage error, 1 for a failure (a file or store that cannot be opened, read or written).
    let status: Int32
    /// One line or more, without the `shop-rpc: ` prefix.
    let message: String

    /// The command line cannot be run (exit status 2).
    static func usage(_ message: String) -> CommandFailure {
        CommandFailure(status: 2, message: message)
    }

    /// The command could not do its work (exit status 1).
    static func failed(_ message: String) -> CommandFailure {
        CommandFailure(status: 1, message: message)
    }
}
