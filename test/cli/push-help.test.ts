/**
 * `ferry --help` names every option `ferry push accounts` takes (it once left out --wave).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { PUSH_USAGE } from '../../src/cli/push/push-command.ts';

describe('ferry --help', () => {
  it('lists every option of ferry push accounts', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "import { main } from './src/cli/main.ts'; process.exitCode = await main(['--help']);",
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    assert.equal(run.status, 0, run.stderr);
    const accountsUsage = PUSH_USAGE.split('\n  ferry push notes')[0];
    const options = [...new Set(accountsUsage.match(/--[a-z-]+/g))];
    assert.ok(options.includes('--wave'), accountsUsage);
    const top = run.stdout.split('\n  push notes')[0];
    for (const option of options)
      assert.ok(top.includes(option), `${option} in ferry --help:\n${run.stdout}`);
  });
});
