import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isDayOfEveryMonth,
  isDeliveryPointIdentifier,
  isElectricityPrepayReference,
  isMarketParticipantId,
  isPortfolioNumber,
  isPsrIndustryCode,
  isSmartDeviceId,
  isTaxYear,
  isTimePatternRegime,
} from '../../../../src/accounts/payload/rules/industry-identifiers.ts';

test('delivery point identifiers are capitals and digits', () => {
  assert.equal(isDeliveryPointIdentifier('10033544614'), true);
  assert.equal(isDeliveryPointIdentifier('abc'), false);
});

test('portfolio numbers are P- and eight capitals or digits', () => {
  assert.equal(isPortfolioNumber('P-ABCD1234'), true);
  assert.equal(isPortfolioNumber('P-ABCD123'), false);
  assert.equal(isPortfolioNumber('p-abcd1234'), false);
});

test('smart device ids are eight hexadecimal pairs', () => {
  assert.equal(isSmartDeviceId('01-23-45-67-89-AB-CD-EF'), true);
  assert.equal(isSmartDeviceId('01-23-45-67-89-ab-cd-ef'), true);
  assert.equal(isSmartDeviceId('01-23-45-67-89-AB-CD'), false);
  assert.equal(isSmartDeviceId('0123456789ABCDEF'), false);
});

test('market participant ids are capitals and digits; TPRs five digits; PSR codes two digits', () => {
  assert.equal(isMarketParticipantId('TENT'), true);
  assert.equal(isMarketParticipantId('tent'), false);
  assert.equal(isTimePatternRegime('00001'), true);
  assert.equal(isTimePatternRegime('0001'), false);
  assert.equal(isPsrIndustryCode('01'), true);
  assert.equal(isPsrIndustryCode('1'), false);
});

test('electricity prepay references are whole numbers once spaces are removed', () => {
  assert.equal(isElectricityPrepayReference('1234 5678'), true);
  assert.equal(isElectricityPrepayReference('1234-5678'), false);
});

test('tax years are YYYY/YY with consecutive years, across a century', () => {
  assert.equal(isTaxYear('2017/18'), true);
  assert.equal(isTaxYear('1999/00'), true);
  assert.equal(isTaxYear('2017/19'), false);
  assert.equal(isTaxYear('2017-18'), false);
});

test('days every month has: 1 to 28', () => {
  assert.equal(isDayOfEveryMonth(28), true);
  assert.equal(isDayOfEveryMonth(29), false);
  assert.equal(isDayOfEveryMonth(0), false);
});
