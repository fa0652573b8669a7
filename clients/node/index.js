// shop-rpc client for Node.js: public entry point.

export { ShopClient } from './lib/shop-client.js';
export { RPCClient } from './lib/rpc-client.js';
export { bundledServerBinary, locateServerBinary, platformPackageName } from './lib/server-binary.js';
export { LineDecoder, encodeLine } from './lib/line-framing.js';
export {
  ErrorCode,
  errorFromReply,
  RPCError,
  ParseError,
  InvalidRequestError,
  MethodNotFoundError,
  MethodNotAllowedError,
  InvalidParamsError,
  InternalError,
  DeadlineExceededError,
  RequestCancelledError,
  ShuttingDownError,
  ShopError,
  ConnectionLostError,
} from './lib/errors.js';
// The shop's error classes (NotFoundError, OutOfStockError, …), generated from rpc.discover.
export * from './lib/shop-errors.generated.js';
