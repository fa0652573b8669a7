// Embeds the repository's VERSION file, so the binary's version cannot drift from it: the
// compiler records VERSION as an input of this file, and a build after VERSION changes compiles it
// again. `#embed` is C23; clang accepts it in the package's C mode as an extension.
#include "CShopVersion.h"

#pragma clang diagnostic ignored "-Wc23-extensions"
static const char versionFile[] = {
#embed "../../VERSION"
    , 0};

const char *shop_rpc_version_file(void) { return versionFile; }
