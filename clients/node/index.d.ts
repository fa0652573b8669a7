// Type declarations for the shop-rpc Node.js client.

import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

// MARK: - Shop types (protocol.md, section 7)

/** Money is integer cents with a currency code. */
export interface Product {
  sku: string;
  name: string;
  description: string;
  category: string;
  priceCents: number;
  currency: string;
}

export interface CartLine {
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

export interface Cart {
  cartId: string;
  lines: CartLine[];
  totalCents: number;
  currency: string;
}

export interface Order {
  orderId: string;
  cartId: string;
  lines: CartLine[];
  totalCents: number;
  currency: string;
  status: 'placed' | 'cancelled';
  /** ISO 8601, UTC. */
  createdAt: string;
  /** ISO 8601, UTC; present once the order is cancelled. */
  cancelledAt?: string;
  /** The reason its cancel gave, if any. */
  cancelReason?: string;
}

export interface Page<T> {
  items: T[];
  /** Pass back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
}

export interface StockLevel {
  sku: string;
  available: number;
  /** Present (true) when the level is the inventory service's last earlier answer (`--inventory-stale-ms`). */
  stale?: true;
  /** With `stale`: how old that answer is, in milliseconds. */
  ageMs?: number;
}

/** One method's figures in `rpc.stats`: `calls === ok + Σ errors + inFlight`. */
export interface MethodStats {
  calls: number;
  ok: number;
  /** Error replies by code, the code as a string key (`"-32001"`, `"1003"`). */
  errors: Record<string, number>;
  /** Calls ended by their deadline. */
  deadlineExpiries: number;
  /** Calls ended by a client's cancel. */
  cancels: number;
  inFlight: number;
  /** Milliseconds from arrival to reply; null until one of its calls has ended. */
  latencyMs: { p50: number | null; p99: number | null };
}

/** `rpc.stats` (protocol.md, section 6.2). */
export interface ServerStats {
  uptimeMs: number;
  /** Every method the server serves, by name. */
  methods: Record<string, MethodStats>;
  /** The server's own sections (shop-rpc: `inventory` with `--inventory-url`). */
  sections: Record<string, unknown>;
}

// MARK: - Calls

export interface ProgressParams {
  progressToken: string | number;
  /** Increases with every notification (by default: elapsed milliseconds). */
  progress: number;
  /** By default: the call's deadline in milliseconds. */
  total?: number;
  message?: string;
}

export interface CallOptions {
  /**
   * Sent as `params._meta.deadlineMs` (the server cancels the work and replies -32001), and
   * enforced locally `timeoutMarginMs` later in case no reply comes.
   */
  timeoutMs?: number;
  /**
   * Aborting sends `$/cancelRequest` and rejects the call with `RequestCancelledError`. While the
   * request still waits in the client's write queue, it is dropped unsent and the call rejects at once.
   */
  signal?: AbortSignal;
  /**
   * Receives this call's `notifications/progress` params. If it throws, the error is reported as a
   * `'callbackError'` (or on `console.error`), and the call and the connection carry on.
   */
  onProgress?: (progress: ProgressParams) => void;
}

/** Options of a call that changes stock. */
export interface ActingCallOptions extends CallOptions {
  /** Who the call is made for, sent as `params._meta.actor` (1…256 bytes) and recorded on the stock ledger's rows. */
  actor?: string;
}

export interface ClientTuning {
  /** Extra wait after `timeoutMs` for the server's -32001 before rejecting locally. Default 500. */
  timeoutMarginMs?: number;
  /** Wait after an abort for the server's -32800 before rejecting locally. Default 100; 0 rejects at once. */
  cancelGraceMs?: number;
  /** `close()`: wait for a clean exit (spawned) or for calls in flight (attached). Default 5000. */
  closeTimeoutMs?: number;
  /** `close()`: wait after SIGTERM before SIGKILL. Default 2500. */
  killGraceMs?: number;
}

export interface AttachOptions extends ClientTuning {
  /** The server's output. */
  readable?: Readable | NodeJS.ReadableStream;
  /** The server's input. */
  writable?: Writable | NodeJS.WritableStream;
  /** A child process with piped stdin and stdout, instead of `readable`/`writable`. */
  process?: ChildProcess;
}

export interface SpawnOptions extends ClientTuning {
  /** The binary; default `$SHOP_RPC_BIN`, else `shop-rpc` on `PATH`, else `<repo>/.build/release/shop-rpc`. */
  bin?: string;
  /** Extra server arguments, e.g. `['--db', ':memory:']`. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The server's stderr: kept (last 8 KiB, and `'stderr'` events), shown, or dropped. Default `'pipe'`. */
  stderr?: 'pipe' | 'inherit' | 'ignore';
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | string | null;
}

export type BatchOutcome<T = unknown> = { result: T; error?: undefined } | { error: Error; result?: undefined };

export interface RPCClientEvents {
  notification: [method: string, params: unknown];
  progress: [params: ProgressParams];
  protocolError: [error: Error];
  stderr: [text: string];
  close: [reason: ConnectionLostError];
  /**
   * An `onProgress` callback (`source` = `'onProgress'`) or a listener of another event (`source` =
   * its name) threw. Without a listener for this event, the error goes to `console.error`.
   */
  callbackError: [error: unknown, source: 'onProgress' | 'notification' | 'progress' | 'protocolError' | 'stderr' | 'close'];
}

/**
 * A JSON-RPC 2.0 client over NDJSON streams. Every call settles exactly once. Writes respect
 * back-pressure: once the server's input reports itself full, frames wait in the client until it
 * drains, and go out whole and in order.
 */
export class RPCClient extends EventEmitter {
  constructor(options: AttachOptions);

  /** Resolves with the result, or rejects with a typed `RPCError` or `ConnectionLostError`. */
  call<T = any>(method: string, params?: object | unknown[], options?: CallOptions): Promise<T>;
  /** Sends a notification. Throws `ConnectionLostError` when closed. */
  notify(method: string, params?: object | unknown[]): void;
  /** One JSON array; outcomes in request order. Rejects only when the connection is lost. */
  batch(calls: { method: string; params?: object | unknown[] }[], options?: CallOptions): Promise<BatchOutcome<any>[]>;
  /**
   * Ends the server's input (after writing the frames still queued) and waits for a clean exit
   * (bounded), then kills. Idempotent.
   */
  close(): Promise<ExitStatus>;

  readonly pid: number | undefined;
  readonly childProcess: ChildProcess | null;
  readonly exitStatus: ExitStatus | null;
  /** Calls awaiting a reply, including those whose request is still queued. */
  readonly pendingCount: number;
  /** Frames (requests, batches, notifications) waiting for the server's input to drain. */
  readonly queuedFrameCount: number;

  on<E extends keyof RPCClientEvents>(event: E, listener: (...args: RPCClientEvents[E]) => void): this;
  once<E extends keyof RPCClientEvents>(event: E, listener: (...args: RPCClientEvents[E]) => void): this;
  off<E extends keyof RPCClientEvents>(event: E, listener: (...args: RPCClientEvents[E]) => void): this;
}

/** The shop-rpc client: one typed method per shop operation. */
export class ShopClient extends RPCClient {
  /** Spawns a server it owns. Throws when no binary can be found. */
  static spawn(options?: SpawnOptions): ShopClient;
  constructor(options: AttachOptions);

  ping(options?: CallOptions): Promise<Record<string, never>>;
  /** Per-method counts and latency since start, and the server's own sections. */
  stats(options?: CallOptions): Promise<ServerStats>;

  /** Products ordered by sku, one page at a time; `limit` 1…200 (default 50). */
  catalogList(query?: { cursor?: string; limit?: number; category?: string }, options?: CallOptions): Promise<Page<Product>>;
  /** Rejects with `NotFoundError` for an unknown sku. */
  catalogGet(sku: string, options?: CallOptions): Promise<Product>;
  /** Products whose name and category have every word of `query` (words of 3+ letters also as prefixes), in catalog order. */
  catalogSearch(query: string, page?: { limit?: number }, options?: CallOptions): Promise<{ items: Product[] }>;

  /** Levels in request order, 1…100 skus; server deadline 5 s. */
  inventoryCheck(skus: string[], options?: CallOptions): Promise<{ levels: StockLevel[] }>;

  /** An unknown cart is empty. */
  cartGet(cartId: string, options?: CallOptions): Promise<Cart>;
  /** Adds to the line's quantity; a line holds at most 999 (`InvalidQuantityError`). */
  cartAdd(cartId: string, sku: string, quantity: number, options?: CallOptions): Promise<Cart>;
  cartRemove(cartId: string, sku: string, options?: CallOptions): Promise<Cart>;
  cartClear(cartId: string, options?: CallOptions): Promise<Cart>;

  /** Idempotent per key: a retry returns the same order. */
  ordersPlace(cartId: string, idempotencyKey: string, options?: ActingCallOptions): Promise<Order>;
  /** Restocks every line; cancelling again resolves with the order as it is. `NotFoundError` for an unknown order. */
  ordersCancel(orderId: string, cancel?: { reason?: string }, options?: ActingCallOptions): Promise<Order>;
  ordersGet(orderId: string, options?: CallOptions): Promise<Order>;
  /** Newest first. */
  ordersList(query?: { cartId?: string; cursor?: string; limit?: number }, options?: CallOptions): Promise<Page<Order>>;

  /** Adds (takes, when negative) units; `StockOutOfRangeError` below 0 or above the maximum. Not idempotent. */
  adminStockAdjust(sku: string, delta: number, reason: StockAdjustmentReason, options?: ActingCallOptions): Promise<StockLevel>;
  /** Puts the level; with `expected`, a compare-and-set (`StockMismatchError` when the level differs). */
  adminStockSet(sku: string, available: number, condition?: { expected?: number }, options?: ActingCallOptions): Promise<StockLevel>;
  /** The import's rules, all or nothing; `InvalidParamsError` (with `errors`) for a product that breaks one. */
  adminProductsUpsert(products: CatalogProduct[], options?: ActingCallOptions): Promise<ImportSummary>;
  /** As `import --replace` archives; `NotFoundError` for an unknown sku, archiving none. */
  adminProductsArchive(skus: string[], options?: ActingCallOptions): Promise<{ archived: number }>;
}

/** One product for `adminProductsUpsert`, as a catalog file's row: a member left out keeps the product's field. */
export interface CatalogProduct {
  sku: string;
  name?: string;
  description?: string;
  category?: string;
  priceCents?: number;
  currency?: string;
  stock?: number;
}

/** What an import or `adminProductsUpsert` did. */
export interface ImportSummary {
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  archived: number;
  stockSet: number;
}

/** Why `adminStockAdjust` changes a level. */
export type StockAdjustmentReason = 'received' | 'correction' | 'damaged' | 'returned' | 'other';

/**
 * The server to spawn: `$SHOP_RPC_BIN`, else the installed platform package's binary, else
 * `shop-rpc` on `PATH` (never `skip`), else the repository's release build. Throws naming every
 * place it looked.
 */
export function locateServerBinary(env?: NodeJS.ProcessEnv, options?: { skip?: string }): string;
/** The binary of the installed platform package (`shop-rpc-linux-x64`'s `bin/shop-rpc`), or null. */
export function bundledServerBinary(): string | null;
/** The npm package carrying the server for a platform, e.g. `shop-rpc-linux-x64`. */
export function platformPackageName(platform?: string, arch?: string): string;

// MARK: - Framing

/** Splits a byte stream into lines with no length limit; each byte is scanned once. */
export class LineDecoder {
  decode(chunk: Buffer): string[];
  end(): string[];
  readonly bufferedBytes: number;
}
export function encodeLine(message: unknown): string;

// MARK: - Errors

export const ErrorCode: Readonly<{
  ParseError: -32700;
  InvalidRequest: -32600;
  MethodNotFound: -32601;
  InvalidParams: -32602;
  InternalError: -32603;
  DeadlineExceeded: -32001;
  ShuttingDown: -32002;
  Cancelled: -32800;
  NotFound: 1001;
  OutOfStock: 1002;
  InvalidQuantity: 1003;
  CartEmpty: 1004;
  IdempotencyConflict: 1005;
  InvalidCursor: 1006;
  Interrupted: 1007;
  StorageError: 1008;
  InventoryUnavailable: 1009;
  StoreBusy: 1010;
  StockOutOfRange: 1011;
  StockMismatch: 1012;
  CartFull: 1013;
}>;

export interface ErrorContext {
  requestId?: string | number | null;
  method?: string;
  cause?: unknown;
}

/** An error reply from the server. The class is chosen by `data.type`, then by `code`. */
export class RPCError extends Error {
  constructor(code: number, message: string, data?: Record<string, unknown>, context?: ErrorContext);
  readonly code: number;
  readonly data: Record<string, any>;
  /** `data.type`, e.g. `"InvalidParams"`. */
  readonly type: string | undefined;
  /** The id of the request this answers; `null` when the server could not read it. */
  readonly requestId: string | number | null;
  /** `data.method`, else the method that was called. */
  readonly method: string | undefined;
  /** True when raised by the client itself (local timeout or abort). */
  readonly local: boolean;
}

export class ParseError extends RPCError {}
export class InvalidRequestError extends RPCError {}
export class MethodNotFoundError extends RPCError {}
/** The server's scopes (`--read-only`, `--allow`) exclude the method; it did nothing. */
export class MethodNotAllowedError extends MethodNotFoundError {
  /** The scope the method needs, e.g. `"write"`. */
  readonly scope: string | undefined;
}
export class InvalidParamsError extends RPCError {
  readonly field: string | undefined;
  /** `adminProductsUpsert`: every error found, `[{ index, field, message }]` (else `[]`). */
  readonly errors: { index: number; field: string; message: string }[];
}
export class InternalError extends RPCError {}
export class DeadlineExceededError extends RPCError {
  readonly deadlineMs: number | undefined;
  readonly elapsedMs: number | undefined;
  /** True when the server answered at once because the inventory service could not have answered in time. */
  readonly shed: boolean;
}
export class RequestCancelledError extends RPCError {}
export class ShuttingDownError extends RPCError {}

/** Base class of the shop's own errors (codes ≥ 1000). */
export class ShopError extends RPCError {}
export class NotFoundError extends ShopError {
  readonly entity: string | undefined;
  readonly id: string | undefined;
}
export class OutOfStockError extends ShopError {
  readonly sku: string | undefined;
  readonly requested: number | undefined;
  readonly available: number | undefined;
}
export class InvalidQuantityError extends ShopError {
  readonly sku: string | undefined;
  readonly quantity: number | undefined;
  readonly max: number | undefined;
}
export class CartEmptyError extends ShopError {
  readonly cartId: string | undefined;
}
export class IdempotencyConflictError extends ShopError {
  readonly idempotencyKey: string | undefined;
  readonly cartId: string | undefined;
}
/** 1009: the live inventory service gave no usable answer; retry later. */
export class InventoryUnavailableError extends ShopError {
  readonly detail: string | undefined;
  /** The service's HTTP status when it answered at all. */
  readonly status: number | undefined;
}

/** 1010: another writer (an import) held the store too long; nothing changed, retry shortly. */
export class StoreBusyError extends ShopError {
  readonly detail: string | undefined;
}
/** 1011: a stock change would leave the level below 0 or above `max`; nothing was changed. */
export class StockOutOfRangeError extends ShopError {
  readonly sku: string | undefined;
  /** The level found. */
  readonly available: number | undefined;
  readonly delta: number | undefined;
  readonly max: number | undefined;
}
/** 1012: `adminStockSet`'s compare-and-set found `available`, not `expected`; nothing was changed. */
export class StockMismatchError extends ShopError {
  readonly sku: string | undefined;
  readonly expected: number | undefined;
  /** The level found. */
  readonly available: number | undefined;
}
/**
 * 1013: `cartAdd` would start a new line past the cart's `max` lines, or the cart's total is more
 * than 64 bits of cents hold (`totalOutOfRange`, an old cart: `cartClear` empties it); nothing was changed.
 */
export class CartFullError extends ShopError {
  readonly cartId: string | undefined;
  /** The cart's line count, for a new line past the limit. */
  readonly lines: number | undefined;
  readonly max: number | undefined;
  readonly totalOutOfRange: boolean;
}

/** The server exited, crashed or closed its output, or the client was closed. */
export class ConnectionLostError extends Error {
  constructor(message: string, details?: { exitCode?: number | null; signal?: string | null; stderr?: string; cause?: unknown });
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The server's last stderr output, when captured. */
  readonly stderr: string;
}

export function errorFromReply(
  error: { code?: unknown; message?: unknown; data?: unknown },
  context?: ErrorContext,
): RPCError;
