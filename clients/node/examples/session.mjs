#!/usr/bin/env node
// A short shop session: browse the catalog, fill a cart, place an order.
//
//   node examples/session.mjs                  # throw-away store (--db :memory:)
//   node examples/session.mjs --db shop.sqlite # any shop-rpc flags
//
// The server binary is $SHOP_RPC_BIN, else shop-rpc on PATH, else <repo>/.build/release/shop-rpc.

import { randomUUID } from 'node:crypto';
import { DeadlineExceededError, OutOfStockError, ShopClient } from '../index.js';

const serverArgs = process.argv.length > 2 ? process.argv.slice(2) : ['--db', ':memory:'];
const client = ShopClient.spawn({ args: serverArgs, stderr: 'inherit' });

const money = (cents, currency) => `${(cents / 100).toFixed(2)} ${currency}`;

try {
  // Browse: the first page of the catalog, then a search.
  const page = await client.catalogList({ limit: 5 });
  console.log('Catalog:');
  for (const product of page.items) {
    console.log(`  ${product.sku}  ${product.name.padEnd(32)} ${money(product.priceCents, product.currency)}`);
  }
  const found = await client.catalogSearch('coffee', { limit: 3 });
  console.log(`Search "coffee": ${found.items.map((product) => product.name).join(', ') || 'nothing'}`);

  // Pick something in stock. The inventory service has a deadline; say so politely if it is slow.
  const product = found.items[0] ?? page.items[0];
  try {
    const { levels } = await client.inventoryCheck([product.sku], { timeoutMs: 2000 });
    console.log(`${product.name}: ${levels[0].available} in stock`);
  } catch (error) {
    if (!(error instanceof DeadlineExceededError)) throw error;
    console.log(error.message);
  }

  // Fill a cart and place the order; the idempotency key makes a retry safe.
  const cartId = `cart-${randomUUID()}`;
  const cart = await client.cartAdd(cartId, product.sku, 2);
  console.log(`Cart ${cart.cartId}: ${cart.lines.length} line(s), ${money(cart.totalCents, cart.currency)}`);
  try {
    const order = await client.ordersPlace(cartId, randomUUID());
    console.log(`Placed order ${order.orderId}: ${money(order.totalCents, order.currency)} (${order.status})`);
  } catch (error) {
    if (!(error instanceof OutOfStockError)) throw error;
    console.log(`Only ${error.available} of ${error.sku} left; ${error.requested} requested`);
  }
} finally {
  await client.close();
}
