// Type declarations for the shop-rpc Node.js client.

import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

// MARK: - Shop types (protocol.md, section 7)

// The shop's result and param types (Product, Cart, CartLine, Order, ProductPage, OrderPage,
// ProductSearchPage, StockLevel, InventoryLevels, CatalogProduct, ImportSummary, ProductsArchived) and the
// ShopMethods interface, generated from rpc.discover; and its error classes.
import type { ShopMethods } from './lib/shop-methods.generated.js';
import type { ShopErrorCodes } from './lib/shop-errors.generated.js';
export * from './lib/shop-methods.generated.js';
export * from './lib/shop-errors.generated.js';

/** A page of a listing: `ProductPage` and `OrderPage` have this shape. */
export interface Page<T> {
  items: T[];
  /** Pass back as `cursor` for the next page; absent on the last page. */
  nextCursor?: string;
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

/** The shop-rpc client: one typed method per shop operation (`ShopMethods`, generated), and the built-ins. */
export interface ShopClient extends ShopMethods {}
export class ShopClient extends RPCClient {
  /** Spawns a server it owns. Throws when no binary can be found. */
  static spawn(options?: SpawnOptions): ShopClient;
  constructor(options: AttachOptions);

  ping(options?: CallOptions): Promise<Record<string, never>>;
  /** Per-method counts and latency since start, and the server's own sections. */
  stats(options?: CallOptions): Promise<ServerStats>;
}

/** Why `adminStockAdjust` changes a level: its `reason` param's values. */
export type StockAdjustmentReason = Parameters<ShopMethods['adminStockAdjust']>[2];

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

/** The engine's error codes and the shop's (`ShopErrorCodes`, generated). */
export const ErrorCode: Readonly<{
  ParseError: -32700;
  InvalidRequest: -32600;
  MethodNotFound: -32601;
  InvalidParams: -32602;
  InternalError: -32603;
  DeadlineExceeded: -32001;
  ShuttingDown: -32002;
  Cancelled: -32800;
}> & Readonly<ShopErrorCodes>;

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
