import Dispatch
import RPCServer
import ShopAPI

/// A call's cancellation token with its deadline, as the shop's store sees them: interrupted when
/// the token is cancelled (deadline, client cancel, shutdown), and `deadline` for a database that
/// can enforce it itself (PostgreSQL's `statement_timeout`). Immutable; thread-safe as the token is.
final class ShopCallInterruption: ShopInterruption {
    private let token: CancellationToken
    let deadline: DispatchTime?

    init(_ context: CallContext) {
        token = context.cancellation
        deadline = context.deadline
    }

    var isInterrupted: Bool { token.isInterrupted }

    func addInterruptHandler(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        token.addInterruptHandler(action)
    }
}

/// The engine's token seen as a shop interruption: interrupted once cancelled.
extension CancellationToken: ShopInterruption {
    public var isInterrupted: Bool { isCancelled }

    public func addInterruptHandler(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let registration = onCancel(action)
        return { registration.remove() }
    }
}
