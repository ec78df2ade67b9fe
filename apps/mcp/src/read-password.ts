import type { Readable, Writable } from 'node:stream';

export interface PasswordSources {
  env: NodeJS.ProcessEnv;
  stdin: Readable & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
  /** Where prompts go (never stdout, so the command's output stays clean). */
  prompt: Writable;
}

export const PASSWORD_VARIABLE = 'FILESHIFT_WALLET_KEYSTORE_PASSWORD';

/**
 * The keystore password: from FILESHIFT_WALLET_KEYSTORE_PASSWORD, else typed at a terminal (not echoed,
 * asked twice), else the first line of piped stdin. Never from an argument: arguments show in `ps`.
 */
export async function readNewPassword({ env, stdin, prompt }: PasswordSources): Promise<string> {
  const fromEnv = env[PASSWORD_VARIABLE];
  if (fromEnv !== undefined) return fromEnv;
  if (!stdin.isTTY || !stdin.setRawMode) return firstLine(stdin);
  const password = await typedSecret(stdin, prompt, 'Keystore password: ');
  if ((await typedSecret(stdin, prompt, 'Again: ')) !== password) throw new Error('the two passwords differ');
  return password;
}

async function firstLine(stdin: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

/** One line typed at a terminal in raw mode, so that nothing of it is echoed. */
function typedSecret(stdin: PasswordSources['stdin'], prompt: Writable, question: string): Promise<string> {
  prompt.write(question);
  stdin.setRawMode!(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      stdin.setRawMode!(false);
      stdin.pause();
      prompt.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: Buffer | string) => {
      for (const char of String(chunk)) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003') return finish(new Error('cancelled'));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}
