/**
 * Fractional indexes for z-order (shapes are drawn in ascending string order, SPEC D4): a key
 * between any two keys, so reordering one shape is one small change. The algorithm and key format
 * are those of David Greenspan's "Implementing Fractional Indexing" (as in the
 * `fractional-indexing` package, CC0): an integer part whose first character encodes its length
 * ('a0' … 'az', 'b00' …) and a base-62 fraction without trailing zeros, so appending n shapes on
 * top grows keys only logarithmically. Equal keys (two users at once) are ordered by shape id.
 */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SMALLEST_INTEGER = 'A' + '0'.repeat(26);

function midpoint(a: string, b: string | null): string {
  if (b !== null && a >= b) throw new RangeError(`${a} >= ${b}`);
  if (a.endsWith('0') || (b !== null && b.endsWith('0'))) throw new RangeError('trailing zero');
  if (b !== null) {
    let n = 0;
    while ((a[n] ?? '0') === b[n]) n++;
    if (n > 0) return b.slice(0, n) + midpoint(a.slice(n), b.slice(n));
  }
  const digitA = a ? DIGITS.indexOf(a[0]!) : 0;
  const digitB = b !== null ? DIGITS.indexOf(b[0]!) : DIGITS.length;
  if (digitB - digitA > 1) return DIGITS[Math.round(0.5 * (digitA + digitB))]!;
  if (b !== null && b.length > 1) return b.slice(0, 1);
  return DIGITS[digitA]! + midpoint(a.slice(1), null);
}

function integerLength(head: string): number {
  if (head >= 'a' && head <= 'z') return head.charCodeAt(0) - 97 + 2;
  if (head >= 'A' && head <= 'Z') return 90 - head.charCodeAt(0) + 2;
  throw new RangeError(`invalid order key head: ${head}`);
}
function integerPart(key: string): string {
  const len = integerLength(key[0] ?? '');
  if (len > key.length) throw new RangeError(`invalid order key: ${key}`);
  return key.slice(0, len);
}
export function isOrderKey(key: string): boolean {
  try {
    if (key === SMALLEST_INTEGER) return false;
    const i = integerPart(key);
    return ![...key].some((c) => !DIGITS.includes(c)) && !key.slice(i.length).endsWith('0');
  } catch {
    return false;
  }
}
function validate(key: string): void {
  if (!isOrderKey(key)) throw new RangeError(`invalid order key: ${key}`);
}

function incrementInteger(x: string): string | null {
  const [head, ...digs] = x.split('') as [string, ...string[]];
  let carry = true;
  for (let i = digs.length - 1; carry && i >= 0; i--) {
    const d = DIGITS.indexOf(digs[i]!) + 1;
    if (d === DIGITS.length) digs[i] = '0';
    else {
      digs[i] = DIGITS[d]!;
      carry = false;
    }
  }
  if (!carry) return head + digs.join('');
  if (head === 'Z') return 'a0';
  if (head === 'z') return null;
  const h = String.fromCharCode(head.charCodeAt(0) + 1);
  if (h > 'a') digs.push('0');
  else digs.pop();
  return h + digs.join('');
}
function decrementInteger(x: string): string | null {
  const [head, ...digs] = x.split('') as [string, ...string[]];
  let borrow = true;
  for (let i = digs.length - 1; borrow && i >= 0; i--) {
    const d = DIGITS.indexOf(digs[i]!) - 1;
    if (d === -1) digs[i] = DIGITS.slice(-1);
    else {
      digs[i] = DIGITS[d]!;
      borrow = false;
    }
  }
  if (!borrow) return head + digs.join('');
  if (head === 'a') return 'Z' + DIGITS.slice(-1);
  if (head === 'A') return null;
  const h = String.fromCharCode(head.charCodeAt(0) - 1);
  if (h < 'Z') digs.push(DIGITS.slice(-1));
  else digs.pop();
  return h + digs.join('');
}

/** A key strictly between a and b (null = open end). */
export function keyBetween(a: string | null, b: string | null): string {
  if (a !== null) validate(a);
  if (b !== null) validate(b);
  if (a !== null && b !== null && a >= b) throw new RangeError(`${a} >= ${b}`);
  if (a === null) {
    if (b === null) return 'a0';
    const ib = integerPart(b);
    const fb = b.slice(ib.length);
    if (ib === SMALLEST_INTEGER) return ib + midpoint('', fb);
    if (ib < b) return ib;
    const res = decrementInteger(ib);
    if (res === null) throw new RangeError('cannot decrement any more');
    return res;
  }
  if (b === null) {
    const ia = integerPart(a);
    const fa = a.slice(ia.length);
    const i = incrementInteger(ia);
    return i === null ? ia + midpoint(fa, null) : i;
  }
  const ia = integerPart(a);
  const fa = a.slice(ia.length);
  const ib = integerPart(b);
  const fb = b.slice(ib.length);
  if (ia === ib) return ia + midpoint(fa, fb);
  const i = incrementInteger(ia);
  if (i === null) throw new RangeError('cannot increment any more');
  return i < b ? i : ia + midpoint(fa, null);
}

/** A key above `top` (the current highest key, or null on an empty board); tolerates foreign keys. */
export function keyAbove(top: string | null): string {
  return keyBetween(top !== null && isOrderKey(top) ? top : null, null);
}
