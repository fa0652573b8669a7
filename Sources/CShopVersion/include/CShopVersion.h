#ifndef SHOP_CSHOPVERSION_H
#define SHOP_CSHOPVERSION_H

/// The repository's VERSION file as it was at build time, NUL-terminated: its first line is
/// shop-rpc's version, the one place the version is written (scripts/package stamps the same file
/// into the Python and Node packages). A string that lives as long as the process.
const char *shop_rpc_version_file(void);

#endif
