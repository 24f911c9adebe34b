import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isBlackholeAddress,
  isEmailAddress,
  isTestEmailAddress,
} from '../../../../src/accounts/payload/customers/email-address.ts';

test('accepts ordinary addresses, tags and subdomains', () => {
  for (const address of [
    'bob@jablonski.com',
    'first.last+tag@mail.example.co.uk',
    "o'neil@example.ie",
    'a@b.xn--p1ai',
  ]) {
    assert.equal(isEmailAddress(address), true, address);
  }
});

test('rejects addresses without a local part, a domain or a top-level domain, or with spaces', () => {
  const addresses = [
    '',
    'bob',
    '@example.com',
    'bob@',
    'bob@example',
    'bob@@example.com',
    'bob smith@example.com',
    'bob@exa mple.com',
    'bob.@example.com',
    'bob@-example.com',
  ];
  for (const address of addresses) assert.equal(isEmailAddress(address), false, address);
});

test('rejects addresses longer than 254 characters', () => {
  assert.equal(isEmailAddress(`${'a'.repeat(60)}@${'b'.repeat(200)}.com`), false);
});

test('flags addresses that look made up for testing', () => {
  for (const address of [
    'test@example.com',
    'XXX@example.com',
    'bob@test.com',
    'bob@test.co.uk',
    'bob@example.xx',
    'bob@example.xxx',
  ]) {
    assert.equal(isTestEmailAddress(address), true, address);
  }
  for (const address of ['tester@example.com', 'bob@testing.com', 'bob@example.com']) {
    assert.equal(isTestEmailAddress(address), false, address);
  }
});

test('flags blackhole+ addresses in any case', () => {
  assert.equal(isBlackholeAddress('Blackhole+bills@example.com'), true);
  assert.equal(isBlackholeAddress('blackhole@example.com'), false);
});
