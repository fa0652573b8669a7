import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CartEmptyError,
  DeadlineExceededError,
  IdempotencyConflictError,
  InternalError,
  InvalidParamsError,
  InvalidQuantityError,
  InvalidRequestError,
  InventoryUnavailableError,
  MethodNotFoundError,
  MethodNotAllowedError,
  NotFoundError,
  OutOfStockError,
  ParseError,
  RequestCancelledError,
  RPCError,
  ShopError,
  ShuttingDownError,
  StoreBusyError,
  StockMismatchError,
  CartFullError,
  StockOutOfRangeError,
  errorFromReply,
} from '../index.js';

test('errorFromReply_eachDataType_mapsToItsClass', () => {
  const cases = [
    [-32700, 'ParseError', ParseError],
    [-32700, 'FramingError', ParseError],
    [-32600, 'InvalidRequest', InvalidRequestError],
    [-32600, 'MessageTooLarge', InvalidRequestError],
    [-32600, 'DuplicateId', InvalidRequestError],
    [-32601, 'MethodNotFound', MethodNotFoundError],
    [-32601, 'MethodNotAllowed', MethodNotAllowedError],
    [-32602, 'InvalidParams', InvalidParamsError],
    [-32603, 'InternalError', InternalError],
    [-32001, 'DeadlineExceeded', DeadlineExceededError],
    [-32002, 'ShuttingDown', ShuttingDownError],
    [-32800, 'Cancelled', RequestCancelledError],
    [1001, 'NotFound', NotFoundError],
    [1002, 'OutOfStock', OutOfStockError],
    [1003, 'InvalidQuantity', InvalidQuantityError],
    [1004, 'CartEmpty', CartEmptyError],
    [1005, 'IdempotencyConflict', IdempotencyConflictError],
    [1006, 'InvalidCursor', ShopError],
    [1008, 'StorageError', ShopError],
    [1009, 'InventoryUnavailable', InventoryUnavailableError],
    [1010, 'StoreBusy', StoreBusyError],
    [1011, 'StockOutOfRange', StockOutOfRangeError],
    [1012, 'StockMismatch', StockMismatchError],
    [1013, 'CartFull', CartFullError],
  ];
  for (const [code, type, ErrorClass] of cases) {
    const error = errorFromReply({ code, message: 'm', data: { type } }, { requestId: 7, method: 'x.y' });
    assert.ok(error instanceof ErrorClass, `${type} → ${ErrorClass.name}, got ${error.constructor.name}`);
    assert.ok(error instanceof RPCError);
    assert.equal(error.code, code);
    assert.equal(error.type, type);
    assert.equal(error.requestId, 7);
    assert.equal(error.name, ErrorClass.name);
  }
});

test('errorFromReply_stockErrors_carryTheLevelFound', () => {
  const range = errorFromReply({ code: 1011, message: 'm', data: { type: 'StockOutOfRange', sku: 'A', available: 2, delta: -5, max: 9 } });
  assert.ok(range instanceof StockOutOfRangeError && range instanceof ShopError);
  assert.deepEqual([range.sku, range.available, range.delta, range.max], ['A', 2, -5, 9]);
  const mismatch = errorFromReply({ code: 1012, message: 'm', data: { sku: 'A', expected: 5, available: 7 } });
  assert.ok(mismatch instanceof StockMismatchError, 'by code when data.type is missing');
  assert.deepEqual([mismatch.sku, mismatch.expected, mismatch.available], ['A', 5, 7]);
});

test('errorFromReply_cartFull_carriesTheLimitOrTheTotalOutOfRange', () => {
  const full = errorFromReply({ code: 1013, message: 'm', data: { type: 'CartFull', cartId: 'c', lines: 100, max: 100 } });
  assert.ok(full instanceof CartFullError && full instanceof ShopError);
  assert.deepEqual([full.cartId, full.lines, full.max, full.totalOutOfRange], ['c', 100, 100, false]);
  const total = errorFromReply({ code: 1013, message: 'm', data: { cartId: 'old', max: 100, totalOutOfRange: true } });
  assert.ok(total instanceof CartFullError, 'by code when data.type is missing');
  assert.equal(total.totalOutOfRange, true);
});

test('errorFromReply_inventoryUnavailable_carriesDetailAndStatus', () => {
  const error = errorFromReply({ code: 1009, message: 'm', data: { type: 'InventoryUnavailable', detail: 'HTTP 503', status: 503 } });
  assert.ok(error instanceof InventoryUnavailableError && error instanceof ShopError);
  assert.equal(error.detail, 'HTTP 503');
  assert.equal(error.status, 503);
  assert.ok(errorFromReply({ code: 1009, message: 'm' }) instanceof InventoryUnavailableError);
});

test('errorFromReply_methodNotAllowed_isAMethodNotFound_carryingItsScope', () => {
  const error = errorFromReply({ code: -32601, message: 'm', data: { type: 'MethodNotAllowed', method: 'cart.add', scope: 'write' } });
  assert.ok(error instanceof MethodNotAllowedError && error instanceof MethodNotFoundError);
  assert.equal(error.scope, 'write');
  assert.equal(error.method, 'cart.add');
});

test('errorFromReply_dataTypeDisagreesWithCode_typeWins', () => {
  assert.ok(errorFromReply({ code: -32603, message: 'm', data: { type: 'OutOfStock' } }) instanceof OutOfStockError);
});

test('errorFromReply_noDataType_fallsBackToCode', () => {
  assert.ok(errorFromReply({ code: -32602, message: 'm' }) instanceof InvalidParamsError);
  assert.ok(errorFromReply({ code: 1004, message: 'm', data: {} }) instanceof CartEmptyError);
  assert.ok(errorFromReply({ code: 1999, message: 'm' }) instanceof ShopError);
  const unknown = errorFromReply({ code: -32050, message: 'm' });
  assert.equal(unknown.constructor, RPCError);
});

test('errorFromReply_dataMembers_becomeProperties', () => {
  const deadline = errorFromReply({
    code: -32001,
    message: 'Inventory information is temporarily unavailable, please try again later',
    data: { type: 'DeadlineExceeded', method: 'inventory.check', deadlineMs: 200, elapsedMs: 201 },
  });
  assert.equal(deadline.method, 'inventory.check');
  assert.equal(deadline.deadlineMs, 200);
  assert.equal(deadline.elapsedMs, 201);
  assert.equal(deadline.message, 'Inventory information is temporarily unavailable, please try again later');
  assert.equal(deadline.local, false);
  assert.equal(deadline.shed, false, 'a deadline that passed is not a shed check');
  const shed = errorFromReply({
    code: -32001,
    message: 'Inventory information is temporarily unavailable, please try again later',
    data: { type: 'DeadlineExceeded', method: 'inventory.check', shed: true, detail: 'too busy' },
  });
  assert.ok(shed instanceof DeadlineExceededError);
  assert.equal(shed.shed, true);
  assert.equal(shed.deadlineMs, undefined);

  const stock = errorFromReply({ code: 1002, message: 'm', data: { type: 'OutOfStock', sku: 'S', requested: 5, available: 2 } });
  assert.deepEqual([stock.sku, stock.requested, stock.available], ['S', 5, 2]);
  const missing = errorFromReply({ code: 1001, message: 'm', data: { type: 'NotFound', entity: 'product', id: 'S' } });
  assert.deepEqual([missing.entity, missing.id], ['product', 'S']);
  const params = errorFromReply({ code: -32602, message: 'm', data: { type: 'InvalidParams', field: 'limit' } });
  assert.equal(params.field, 'limit');
});
