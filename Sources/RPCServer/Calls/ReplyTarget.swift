/// Where one call's reply goes: straight to the connection, into a batch slot, or nowhere (a
/// notification, which is never answered).
enum ReplyTarget: Sendable {
    case channel(ReplyChannel)
    case batch(BatchCollector, slot: Int)
    case none
}
