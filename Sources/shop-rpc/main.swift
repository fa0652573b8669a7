import RPCServer

// shop-rpc: choose the command, run it, end the process. Each command lives in a file of its own;
// the shop and the engine live in ShopAPI, ShopRPCBinding and RPCServer.

MallocTuning.limitArenas()
ShopCommand.main(Array(CommandLine.arguments.dropFirst()))
