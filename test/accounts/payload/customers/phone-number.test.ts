import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isValidPhoneNumber as libraryIsValid } from 'libphonenumber-js/max';
import { isValidPhoneNumber } from '../../../../src/accounts/payload/customers/phone-number.ts';

test('accepts GB mobile and landline numbers in national form, with or without spacing', () => {
  for (const number of [
    '07123456789',
    '07123 456789',
    '020 7234 3456',
    '02072343456',
    '(020) 7234-3456',
    '0800 123 4567',
  ]) {
    assert.equal(isValidPhoneNumber(number), true, number);
  }
});

test('accepts numbers in international form, GB or abroad', () => {
  for (const number of ['+442076543210', '+44 7123 456789', '+1 202 555 0143', '+33 1 42 68 53 00']) {
    assert.equal(isValidPhoneNumber(number), true, number);
  }
});

test('rejects numbers that are too short, too long, unallocated or not numbers', () => {
  for (const number of [
    '123',
    '0123',
    '071234567890123',
    '01632 960001',
    '07700 900123',
    'not a number',
    '+44',
  ]) {
    assert.equal(isValidPhoneNumber(number), false, number);
  }
});

test('agrees with libphonenumber-js on random GB-shaped numbers (the shortcut never changes a result)', () => {
  let seed = 42;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let i = 0; i < 20000; i++) {
    const length = 9 + (i % 3);
    let digits = '';
    for (let k = 0; k < length; k++) digits += Math.floor(random() * 10);
    const number = `${i % 2 === 0 ? '0' : '+44 '}${digits}`;
    assert.equal(isValidPhoneNumber(number), libraryIsValid(number, 'GB'), number);
  }
});
