/** Console output of the dev scripts: short, coloured when the terminal supports it. */
const useColor = process.stdout.isTTY === true && !process.env.NO_COLOR;

const code = (open: number, close: number) => (s: string) => (useColor ? `\x1b[${open}m${s}\x1b[${close}m` : s);
export const c = {
  bold: code(1, 22),
  dim: code(2, 22),
  red: code(31, 39),
  green: code(32, 39),
  yellow: code(33, 39),
  blue: code(34, 39),
  magenta: code(35, 39),
  cyan: code(36, 39),
  gray: code(90, 39),
};

/** Colours handed out to child processes in turn, so each service's lines are easy to follow. */
export const palette = [c.cyan, c.magenta, c.blue, c.yellow, c.green];

export const log = {
  step(msg: string): void {
    console.log(`${c.bold(c.blue('▸'))} ${msg}`);
  },
  info(msg: string): void {
    console.log(`  ${msg}`);
  },
  ok(msg: string): void {
    console.log(`${c.green('✔')} ${msg}`);
  },
  warn(msg: string): void {
    console.log(`${c.yellow('!')} ${c.yellow(msg)}`);
  },
  error(msg: string): void {
    console.error(`${c.red('✖')} ${c.red(msg)}`);
  },
};

/** An error whose message is meant for the person at the terminal (no stack trace printed). */
export class UserFacingError extends Error {}

export function describeError(err: unknown): string {
  if (err instanceof UserFacingError) return err.message;
  if (err instanceof Error) return err.stack ?? err.message;
  return String(err);
}
