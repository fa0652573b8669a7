import CShopVersion

/// shop-rpc's version, the first line of the repository's VERSION file (embedded at build time), as
/// `--version`, `rpc.discover` and MCP's `serverInfo` report it.
let version: String = {
    let file = String(cString: shop_rpc_version_file())
    return String(file.prefix { $0 != "\n" && $0 != "\r" })
}()
