import RPCServer

/// What a shop write needs to know about the call it serves: how to interrupt its store work
/// (`ShopCallInterruption`), and who it is made for (`params._meta.actor`), which the stock ledger
/// records. Immutable; thread-safe.
struct ShopCall: Sendable {
    let interruption: ShopCallInterruption
    let actor: String?

    init(_ context: CallContext) {
        interruption = ShopCallInterruption(context)
        actor = context.actor
    }
}
