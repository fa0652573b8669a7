/// Where each method name leads, resolved once when the engine is made, so routing a request is
/// one hash of its method name: a built-in the engine answers itself, a registered method that
/// runs as a call, or a registered method this server does not serve (its scope is not allowed),
/// answered with its refusal and nothing else. Immutable; any thread.
struct RouteTable: Sendable {
    enum Route: Sendable {
        case builtIn(BuiltIn)
        case method(ResolvedMethod)
        /// A method outside the allowed scopes: the error to answer, prepared once.
        case refused(RPCError)
    }

    private let routes: [String: Route]
    /// Every registered method by name (`.method` or `.refused`), built-in names included:
    /// `tools/call` reaches a method by its tool name, never a built-in.
    private let methods: [String: Route]

    /// Built-ins win over registered methods of the same name. `serves` says which methods run;
    /// the others are refused.
    init(methods: [ResolvedMethod], serves: (MethodSpec) -> Bool) {
        var byName: [String: Route] = [:]
        for method in methods {
            let spec = method.spec
            byName[spec.name] = serves(spec) ? .method(method) : .refused(.methodNotAllowed(spec.name, scope: spec.scope))
        }
        var routes = byName
        for builtIn in BuiltIn.allCases { routes[builtIn.name] = .builtIn(builtIn) }
        self.routes = routes
        self.methods = byName
    }

    /// The route of a request's method, nil for an unknown method.
    subscript(method: String) -> Route? { routes[method] }

    /// The route of the registered method of this name (`.method` or `.refused`), nil if there is none.
    func method(named name: String) -> Route? { methods[name] }
}
