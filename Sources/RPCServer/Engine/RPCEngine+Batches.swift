import Dispatch

extension RPCEngine {
    /// Runs a batch's elements concurrently and answers with one array in request order. Every id
    /// is checked against the ids in use and the batch's earlier elements, then held until the
    /// batch's reply is sent. - Important: call on the reader queue.
    func receiveBatchOnReaderQueue(_ elements: [IncomingElement], channel: ReplyChannel) {
        dispatchPrecondition(condition: .onQueue(readerQueue))
        let answered = elements.filter { if case .request(let request) = $0 { return !request.isNotification } else { return true } }
        guard !answered.isEmpty else {
            for case .request(let request) in elements { routeOnReaderQueue(request, target: .none, channel: channel) }
            return
        }
        // Reserve every id first (one lock); a repeated or in-use id is a duplicate.
        let ids = elements.compactMap { element -> RequestID? in
            if case .request(let request) = element { return request.id } else { return nil }
        }
        let reserved = updatingInflight { $0.openBatch(ids: ids) }
        // The array goes out and its ids are released in one step under the lock, so a request
        // reusing one of them is either before the reply (a duplicate) or after it (allowed).
        let collector = BatchCollector(slots: answered.count) { [weak self] array in
            guard let self else { return channel.send(array) }
            let waiters = updatingInflight { table in
                channel.send(array)
                return table.closeBatch(reserved: reserved)
            }
            for action in waiters { readerQueue.async(execute: action) }
        }
        var unclaimed = reserved
        var slot = 0
        for element in elements {
            switch element {
            case .invalid(let error, let id):
                collector.fill(slot: slot, with: ReplyEncoder.error(id: id, error: error))
                slot += 1
            case .request(let request):
                guard let id = request.id else {
                    routeOnReaderQueue(request, target: .none, channel: channel)
                    continue
                }
                if unclaimed.remove(id) != nil {
                    routeOnReaderQueue(request, target: .batch(collector, slot: slot), channel: channel)
                } else {
                    collector.fill(slot: slot, with: Self.duplicateReply(id))
                }
                slot += 1
            }
        }
    }
}
