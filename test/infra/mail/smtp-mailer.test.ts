import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mailErrorOf } from '../../../src/infra/mail/smtp-mailer.ts';

const smtpError = (code: string, responseCode?: number, response?: string) =>
  Object.assign(new Error(response ?? code), { code, responseCode, response });

describe('what an SMTP failure means for a retry', () => {
  it('a 5xx reply about the message or its recipient is permanent, with the reply as reason', () => {
    const e = mailErrorOf(smtpError('EENVELOPE', 550, '550 5.1.1 No such user'));
    assert.equal(e.kind, 'permanent');
    assert.equal(e.responseCode, 550);
    assert.equal(e.message, 'EENVELOPE: 550 5.1.1 No such user');
    assert.equal(mailErrorOf(smtpError('EMESSAGE', 554, '554 5.7.1 Rejected')).kind, 'permanent');
  });

  it('4xx replies, lost connections and timeouts are transient', () => {
    assert.equal(mailErrorOf(smtpError('EMESSAGE', 451, '451 4.3.0 Try later')).kind, 'transient');
    assert.equal(mailErrorOf(smtpError('EPROTOCOL', 421, '421 Closing')).kind, 'transient');
    assert.equal(mailErrorOf(smtpError('ECONNECTION')).kind, 'transient');
    assert.equal(mailErrorOf(smtpError('ETIMEDOUT')).kind, 'transient');
    assert.equal(mailErrorOf(new Error('socket hang up')).kind, 'transient');
  });

  it("a rejected login is the sender's setup, not the message: transient even as 5xx", () => {
    assert.equal(mailErrorOf(smtpError('EAUTH', 535, '535 5.7.8 Bad credentials')).kind, 'transient');
  });
});
