import Dispatch

extension RPCEngine {
    /// Answers a built-in (protocol.md, sections 4 and 6): control messages and the methods the
    /// engine serves itself, none of them a call (never counted in `rpc.stats`), except
    /// `tools/call`, which starts the call its tool names. - Important: call on the reader queue.
    func answerOnReaderQueue(_ builtIn: BuiltIn, _ request: Request, target: ReplyTarget, channel: ReplyChannel) {
        dispatchPrecondition(condition: .onQueue(readerQueue))
        switch builtIn {
        case .cancelRequest:
            cancelOnReaderQueue(request.params?["id"])
            answerInline(request, target: target, .success(.object([:])))
        case .cancelled:
            // MCP: a request the client cancelled this way gets no reply at all.
            cancelOnReaderQueue(request.params?["requestId"], silently: mcp.isOpenOnReaderQueue)
            answerInline(request, target: target, .success(.object([:])))
        case .initialize:
            answerInline(request, target: target, .success(mcp.initializeOnReaderQueue(request.params)))
        case .initialized, .ping:
            answerInline(request, target: target, .success(.object([:])))
        case .toolsList:
            answerInline(request, target: target, mcp.toolsList(request.params))
        case .toolsCall:
            switch mcp.toolCall(request, routes: routes) {
            case .success(.start(let call, let method)):
                startCallOnReaderQueue(call, method: method, target: target, channel: channel, replyStyle: .mcpTool)
            case .success(.refused(let error)):
                answerInline(request, target: target, .failure(error), style: .mcpTool)
            case .failure(let error):
                answerInline(request, target: target, .failure(error))
            }
        case .discover:
            answerInline(request, target: target, .success(discovery))
        case .stats:
            answerInline(request, target: target, .success(statsOnReaderQueue()))
        }
    }

    /// Cancels the call in flight with this id, if any. `silently`: it ends without a reply (MCP),
    /// unless it belongs to a batch, whose one reply needs every slot.
    private func cancelOnReaderQueue(_ idValue: JSONValue?, silently: Bool = false) {
        dispatchPrecondition(condition: .onQueue(readerQueue))
        guard let idValue, let id = RequestID(idValue), let call = inflight.withLock({ $0.call(withID: id) }) else { return }
        var sendsReply = true
        if silently, case .channel = call.target { sendsReply = false }
        call.interrupt(.clientCancel(sendsReply: sendsReply))
    }

    /// The `rpc.stats` result: the counts of every method served (a copy-on-write copy under
    /// the lock, so the walk over the histograms happens outside it; the next call that settles
    /// copies its method's slot once), then the server's sections.
    /// - Important: call on the reader queue.
    private func statsOnReaderQueue() -> JSONValue {
        dispatchPrecondition(condition: .onQueue(readerQueue))
        let table = inflight.withLock { $0.stats }
        return StatsReport.make(uptimeMs: Uptime.millisecondsSince(startNanos), methods: statsMethods, table: table,
                                sections: statsSections)
    }
}
