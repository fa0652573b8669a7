import Dispatch
import FoundationEssentials

// MARK: - The owner's search synonyms

extension ShopService {
    /// The owner's search synonyms, as last set (none when never set).
    public func searchSynonyms(interruption: (any ShopInterruption)?) throws -> SearchSynonyms {
        try store.readOneStatement(interruption: interruption) { try self.searchSynonyms(in: $0) }
    }

    /// Replaces the owner's search synonyms with `synonyms` (an empty set removes them), durably;
    /// every search from then on applies them, in every process on the store. `synonyms` must pass
    /// `SearchSynonyms.firstProblem` (the binding checks it). Completion exactly once, on
    /// `callbackQueue`, with what is now stored.
    public func setSearchSynonyms(
        _ synonyms: SearchSynonyms,
        interruption: (any ShopInterruption)?,
        callbackQueue: DispatchQueue = .global(),
        completion: @escaping @Sendable (Result<SearchSynonyms, ShopError>) -> Void
    ) {
        store.write(interruption: interruption, callbackQueue: callbackQueue, { transaction in
            let isEmpty = synonyms.groups.isEmpty && synonyms.rules.isEmpty
            try transaction.setSearchSynonymsJSON(isEmpty ? nil : String(decoding: try JSONEncoder().encode(synonyms), as: UTF8.self))
            return synonyms
        }, completion: completion)
    }

    /// The synonyms stored in `transaction`'s snapshot.
    func searchSynonyms(in transaction: any ShopReadTransaction) throws -> SearchSynonyms {
        try decodedSynonyms(in: transaction).synonyms
    }

    /// The synonyms stored in `transaction`'s snapshot as a plan looks them up, decoded and
    /// indexed once per stored text.
    func searchSynonymIndex(in transaction: any ShopReadTransaction) throws -> SearchSynonymIndex {
        try decodedSynonyms(in: transaction).index
    }

    private func decodedSynonyms(in transaction: any ShopReadTransaction) throws -> (synonyms: SearchSynonyms, index: SearchSynonymIndex) {
        guard let json = try transaction.searchSynonymsJSON() else { return (.none, .none) }
        if let cached = decodedSynonyms.withLock({ $0 }), cached.json == json { return (cached.synonyms, cached.index) }
        guard let synonyms = try? JSONDecoder().decode(SearchSynonyms.self, from: Data(json.utf8)) else {
            throw ShopError.storage("the stored search synonyms are not readable")
        }
        let index = SearchSynonymIndex(synonyms)
        decodedSynonyms.withLock { $0 = (json, synonyms, index) }
        return (synonyms, index)
    }
}
