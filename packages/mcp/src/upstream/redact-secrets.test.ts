import { describe, expect, it } from 'vitest';
import { createRedactor } from './redact-secrets';

describe('createRedactor', () => {
  it('masks the values of secret-named variables, URL credentials and authorization values', () => {
    const redact = createRedactor({
      GITHUB_TOKEN: 'ghp_0123456789',
      OPENAI_API_KEY: 'sk-abcdefgh',
      'npm_config_//npm.corp/:_authToken': 'npm-tok-42',
      DB_PASSWORD: 'hunter2hunter2',
      MEMORY_FILE_PATH: '/home/me/.memory.jsonl',
      SHORT_TOKEN: 'abc',
    });
    expect(
      redact(
        'auth ghp_0123456789 and sk-abcdefgh for npm-tok-42 (hunter2hunter2) at /home/me/.memory.jsonl via https://me:pa55@proxy:3128, Authorization: Bearer eyJhbGciOi.x.y, abc',
      ),
    ).toBe(
      'auth *** and *** for *** (***) at /home/me/.memory.jsonl via https://***@proxy:3128, Authorization: Bearer ***, abc',
    );
  });

  it('masks a secret that contains another one whole', () => {
    const redact = createRedactor({ A_TOKEN: 'secret-value', B_TOKEN: 'secret-value-longer' });
    expect(redact('x secret-value-longer y')).toBe('x *** y');
  });
});
