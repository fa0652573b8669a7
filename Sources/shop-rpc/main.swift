import RPCServer

// shop-rpc: choose the command, run it. Each command lives in a file of its own; the shop and the
// engine live in ShopAPI, ShopRPCBinding and RPCServer.

MallocTuning.limitArenas()
ShopCommand.run(Array(CommandLine.arguments.dropFirst()))
