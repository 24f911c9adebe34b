import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  addDays,
  calendarDateOf,
  isCalendarDate,
  isDateOrDateTime,
  isDateTime,
  isTimeOfDay,
  utcInstantText,
} from '../../src/vocabulary/calendar-date.ts';

test('accepts real dates written exactly YYYY-MM-DD, leap days included', () => {
  for (const date of ['2019-01-01', '2020-02-29', '2000-02-29', '1999-12-31'])
    assert.equal(isCalendarDate(date), true, date);
});

test('rejects impossible days, other layouts and date-times', () => {
  for (const date of [
    '2019-02-29',
    '1900-02-29',
    '2019-13-01',
    '2019-00-10',
    '2019-04-31',
    '2019-1-01',
    '01/02/2019',
    '2019-01-01T00:00:00Z',
    '',
  ]) {
    assert.equal(isCalendarDate(date), false, date);
  }
});

test('accepts date-times in Z or offset form, with or without fractional seconds', () => {
  for (const value of [
    '2018-10-10T10:20:00Z',
    '2018-10-10T10:20:00.123456Z',
    '2018-10-10T10:20:00+01:00',
    '2018-10-10T23:59:59-05:30',
  ]) {
    assert.equal(isDateTime(value), true, value);
  }
});

test('rejects date-times without seconds or zone, with impossible times, or with a space', () => {
  for (const value of [
    '2018-10-10T10:20Z',
    '2018-10-10T10:20:00',
    '2018-10-10 10:20:00Z',
    '2018-10-10T24:00:00Z',
    '2018-02-30T10:00:00Z',
    '2018-10-10T10:20:00+1:00',
  ]) {
    assert.equal(isDateTime(value), false, value);
  }
});

test('psr effective_from style: a date or a date-time', () => {
  assert.equal(isDateOrDateTime('2012-01-01'), true);
  assert.equal(isDateOrDateTime('2012-01-01T00:00:00Z'), true);
  assert.equal(isDateOrDateTime('2012'), false);
});

test('accepts times of day with and without seconds', () => {
  for (const value of ['00:00', '23:59', '07:30:15', '07:30:15.5'])
    assert.equal(isTimeOfDay(value), true, value);
  for (const value of ['24:00', '7:30', '07:60', '07:30:61']) assert.equal(isTimeOfDay(value), false, value);
});

test('adds and subtracts days across months, years and leap days', () => {
  assert.equal(addDays('2019-08-01', -1), '2019-07-31');
  assert.equal(addDays('2019-12-31', 1), '2020-01-01');
  assert.equal(addDays('2020-02-28', 1), '2020-02-29');
  assert.equal(addDays('2100-02-28', 1), '2100-03-01');
  assert.equal(addDays('2019-03-01', -366), '2018-02-28');
});

test('matches Date arithmetic for every day of two centuries', () => {
  for (let t = Date.UTC(1950, 0, 1); t < Date.UTC(2150, 0, 1); t += 86_400_000 * 5) {
    const date = new Date(t).toISOString().slice(0, 10);
    assert.equal(addDays(date, 40), new Date(t + 40 * 86_400_000).toISOString().slice(0, 10));
  }
});

test('reads the calendar date of a date-time as written', () => {
  assert.equal(calendarDateOf('2019-08-01T23:30:00-05:00'), '2019-08-01');
});

test('utcInstantText writes one canonical UTC text to the microsecond, whatever the offset and fraction', () => {
  assert.equal(utcInstantText('2024-01-01T10:00:00+01:00'), '2024-01-01T09:00:00.000000Z');
  assert.equal(utcInstantText('0001-01-01T00:00:00.0006Z'), '0001-01-01T00:00:00.000600Z');
  assert.equal(utcInstantText('2024-06-30T23:59:59.123456-00:30'), '2024-07-01T00:29:59.123456Z');
  assert.ok(utcInstantText('2024-01-01T00:00:00.000001Z') > utcInstantText('2024-01-01T00:00:00Z'));
});
