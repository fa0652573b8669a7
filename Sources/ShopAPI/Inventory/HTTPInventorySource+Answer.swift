import FoundationEssentials  // URL

extension HTTPInventorySource {
    /// How a finished request ended, for the flight table: its levels, or why there are none.
    static func requestEnd(_ outcome: Result<InventoryHTTPSession.Answer, InventoryHTTPSession.Failure>, asked skus: [String],
                           maxBodyBytes: Int) -> InventoryFlightTable.RequestEnd {
        switch outcome {
        case .failure(.cancelled):
            return .cancelled(unavailable(.cancelled, maxBodyBytes: maxBodyBytes))
        case let .failure(failure):
            return .failed(unavailable(failure, maxBodyBytes: maxBodyBytes))
        case let .success(answer):
            guard answer.status == 200 else {
                return .answered(.failure(.inventoryUnavailable(detail: "the service answered HTTP \(answer.status)", status: answer.status)))
            }
            return .answered(Result { () throws(ShopError) in try InventoryStockAnswer.levels(from: answer.body, asked: skus) })
        }
    }

    static func unbuildableURL(_ base: URL) -> ShopError {
        .inventoryUnavailable(detail: "cannot build a request URL from \(base)", status: nil)
    }

    private static func unavailable(_ failure: InventoryHTTPSession.Failure, maxBodyBytes: Int) -> ShopError {
        let detail: String
        switch failure {
        case .tooLarge: return .inventoryUnavailable(detail: "the answer is larger than \(maxBodyBytes) bytes", status: 200)
        case .refused: detail = "connection refused"
        case .unresolved: detail = "cannot resolve the service's host"
        case .timedOut: detail = "the service did not answer in time"
        case .connectionLost: detail = "the connection was lost before the answer was complete"
        case .cancelled: detail = "the request was cancelled"
        case .other(let message): detail = "the request failed: \(message)"
        }
        return .inventoryUnavailable(detail: detail, status: nil)
    }
}
