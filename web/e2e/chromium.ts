/// <reference types="node" />
/**
 * What every Chromium end-to-end file shares: where the built app and the screenshots are, and
 * how Debian's Chromium is launched here (without the background-networking flags it keeps
 * trying hosts this closed network refuses).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const ROOT = resolve(__dirname, '../..');
export const DIST = join(ROOT, 'web', 'dist');
export const SHOTS = join(ROOT, 'artifacts', 'e2e');
const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** the app is built and Chromium installed (make test and .ci/run see to both) */
export const e2eReady = existsSync(join(DIST, 'index.html')) && existsSync(CHROMIUM);

export async function launchChromium(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}
