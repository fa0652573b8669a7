/// Where each method name leads, resolved once when the engine is made, so routing a request is
/// one hash of its method name: a built-in the engine answers itself, or a registered method
/// that runs as a call. Immutable; any thread.
struct RouteTable: Sendable {
    enum Route: Sendable {
        case builtIn(BuiltIn)
        case method(ResolvedMethod)
    }

    private let routes: [String: Route]
    /// Every registered method by name, built-in names included (`tools/call` reaches a method
    /// by its tool name, never a built-in).
    private let methods: [String: ResolvedMethod]

    /// Built-ins win over registered methods of the same name.
    init(methods: [ResolvedMethod]) {
        var byName: [String: ResolvedMethod] = [:]
        for method in methods { byName[method.spec.name] = method }
        var routes = byName.mapValues(Route.method)
        for builtIn in BuiltIn.allCases { routes[builtIn.name] = .builtIn(builtIn) }
        self.routes = routes
        self.methods = byName
    }

    /// The route of a request's method, nil for an unknown method.
    subscript(method: String) -> Route? { routes[method] }

    /// The registered method of this name, nil if there is none.
    func method(named name: String) -> ResolvedMethod? { methods[name] }
}
