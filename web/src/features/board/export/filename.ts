/**
 * Download names from the board's title: what every file system accepts (no path separators,
 * control or reserved characters, no Windows device names, no trailing dots or spaces).
 */

/** characters of the title kept at most (the extension comes on top) */
export const MAX_NAME_LENGTH = 100;
const FALLBACK = 'board';
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f<>:"/\\|?*]+/g;

export function exportFileName(boardTitle: string, ext: string): string {
  let name = (typeof boardTitle === 'string' ? boardTitle : '')
    .normalize('NFC')
    .replace(UNSAFE, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // cut by code points so a surrogate pair is never split in half
  name = Array.from(name).slice(0, MAX_NAME_LENGTH).join('');
  name = name.replace(/[. ]+$/, '').replace(/^[. ]+/, '');
  if (!name || WINDOWS_DEVICE.test(name)) name = name ? `${name}_` : FALLBACK;
  const cleanExt = ext.replace(/[^a-z0-9]/gi, '').toLowerCase();
  return cleanExt ? `${name}.${cleanExt}` : name;
}
