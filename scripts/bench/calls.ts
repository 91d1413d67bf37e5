/**
 * Calls benchmark (issue 16): 1 teacher publishing 640×360 fake camera video + audio through
 * Janus's VideoRoom, and as many headless Chromium subscribers as this machine holds, added in
 * steps (BENCH_STEP, default 4: 4, 8, 12 …) until the machine saturates or BENCH_MAX (30) is
 * reached. The browsers run the web app's own call code (web/src/features/board/call/
 * callSession.ts, bundled by esbuild): the teacher joins as host with camera and microphone, each
 * subscriber as a student without devices, receiving the teacher's audio and video and decoding
 * it into a <video>.
 *
 * Janus: services/calls' test harness in a network namespace (`startJanus({ netns: true })`,
 * Janus offers no loopback candidates), the room created by the calls service's own Rooms.admit
 * (same bitrate cap, codec and audio-level settings as production) with tokens signed as the
 * service signs them. The gateway's /janus proxy only relays signalling and is left out.
 *
 * Per step, after the new subscribers decode and a settle time, over BENCH_WINDOW seconds (10):
 *  - Janus CPU (user + system from /proc/<pid>/stat) as % of one core, and per subscriber;
 *  - every subscriber's decoded frame rate (totalVideoFrames of its <video>), min and mean;
 *  - the teacher's encoded frame rate and the whole machine's busy % (/proc/stat).
 * Saturation: the slowest subscriber decodes < 60 % of the teacher's frame rate, or the teacher's
 * own encoder falls below 60 % of its frame rate when alone (the machine's busy % is reported but
 * not a stop rule: other work on a shared machine counts in it). Extrapolation to 30 subscribers: least-squares line of Janus CPU % against the
 * number of subscribers (the teacher-only step included), evaluated at 30 (an SFU forwards each
 * packet once per subscriber, so its cost is linear in subscribers; r² is reported as the check).
 *
 * Needs root, `ip` and /usr/bin/janus. Writes artifacts/bench/calls.json.
 * Run: node --import tsx scripts/bench/calls.ts
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { build } from 'esbuild';
import pino from 'pino';
import { chromium, type Browser, type Page } from 'playwright-core';
import { Registry } from 'prom-client';
import { CALL_TOKEN_TTL_MS, type CallJoinReply } from '@wb/proto';
import { Rooms } from '@wb/calls/dist/commands/rooms';
import { JanusLink } from '@wb/calls/dist/janus/link';
import { signJanusToken } from '@wb/calls/dist/janus/tokens';
import { createCallsMetrics } from '@wb/calls/dist/metrics';
import { startJanus } from '@wb/calls/dist/testing/janus';
import { writeBenchResult } from '../lib/bench';
import { ROOT } from '../lib/paths';

const STEP = Number(process.env.BENCH_STEP ?? 4);
const MAX = Number(process.env.BENCH_MAX ?? 30);
const WINDOW_S = Number(process.env.BENCH_WINDOW ?? 10);
const SETTLE_MS = 4000;
const TARGET = 30;
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--disable-features=WebRtcHideLocalIpsWithMdns',
  '--autoplay-policy=no-user-gesture-required',
];

interface Step {
  subscribers: number;
  janusCpuPctOfCore: number;
  janusCpuPctPerSubscriber: number | null;
  subscriberFpsMin: number | null;
  subscriberFpsMean: number | null;
  teacherFps: number;
  machineBusyPct: number;
}

/** the whole machine's busy and total jiffies (/proc/stat first line) */
function machineJiffies(): { busy: number; total: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const idle = (f[3] ?? 0) + (f[4] ?? 0);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** least squares y = a + b·x, with r² */
function linearFit(xs: number[], ys: number[]): { intercept: number; slope: number; r2: number } {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
    syy += (ys[i]! - my) ** 2;
  }
  const slope = sxx ? sxy / sxx : 0;
  return { intercept: my - slope * mx, slope, r2: sxx && syy ? (sxy * sxy) / (sxx * syy) : 1 };
}

const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;

/** the web app's CallSession for the browser, exposed as window.benchCall(name, role, devices) */
async function pageBundle(): Promise<string> {
  const out = await build({
    stdin: {
      contents: `
        import { CallSession } from './web/src/features/board/call/callSession';
        window.benchCall = async (name, role, devices) => {
          const s = new CallSession({
            join: () => window.benchJoin(name, role),
            muteAll: async () => {},
            getUserMedia: (c) => navigator.mediaDevices.getUserMedia(c),
            getDisplayMedia: () => navigator.mediaDevices.getDisplayMedia({ video: true }),
            peer: (c) => new RTCPeerConnection(c),
            origin: location.origin,
          });
          window.call = s;
          await s.join(devices);
          const v = s.getView();
          if (v.status !== 'in-call') throw new Error('join failed: ' + v.error);
        };
        // the first remote feed with video, played into a <video> (decoding needs a sink)
        window.benchWatch = () => {
          const v = window.call.getView();
          const stream = [...v.remote.values()].find((s) => s.getVideoTracks().length);
          if (!stream) return false;
          let el = document.querySelector('video');
          if (!el) {
            el = document.createElement('video');
            el.muted = true;
            el.playsInline = true;
            document.body.append(el);
          }
          if (!el.srcObject) {
            el.srcObject = new MediaStream(stream.getVideoTracks());
            el.play().catch(() => {});
          }
          return el.videoWidth > 0;
        };
        window.benchFrames = () => document.querySelector('video')?.getVideoPlaybackQuality().totalVideoFrames ?? 0;
        window.benchSent = async () => {
          const pc = window.call.main?.pc;
          if (!pc) return 0;
          let frames = 0;
          (await pc.getStats()).forEach((r) => { if (r.type === 'outbound-rtp' && r.kind === 'video') frames += r.framesEncoded ?? 0; });
          return frames;
        };
      `,
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    write: false,
    logLevel: 'error',
  });
  return out.outputFiles[0]!.text;
}

async function main(): Promise<void> {
  const janus = await startJanus({ netns: true });
  const log = pino({ level: 'silent' });
  const link = new JanusLink({ url: janus.wsUrl, apiSecret: janus.secrets.apiSecret, timeoutMs: 10_000, log });
  const rooms = new Rooms({
    janus: link,
    config: {
      roomKey: janus.secrets.apiSecret,
      tokenSecret: janus.secrets.tokenSecret,
      adminKey: janus.secrets.adminSecret,
      bitrate: 512_000,
      idleMs: 600_000,
    },
    metrics: createCallsMetrics(new Registry()),
    log,
    now: () => Date.now(),
  });
  const boardId = 'benchCallsBoard0000000'.slice(0, 21);
  const joinReply = async (display: string, role: 'host' | 'member'): Promise<CallJoinReply> => {
    const expires = Date.now() + CALL_TOKEN_TTL_MS;
    const token = signJanusToken(janus.secrets.tokenSecret, expires);
    const room = await rooms.admit(boardId, token);
    return {
      room,
      token,
      expiresAt: new Date(expires).toISOString(),
      janusUrl: janus.wsUrl,
      iceServers: [],
      role,
      display,
    };
  };

  const bundle = await pageBundle();
  const server = createServer((req, res) => {
    const js = req.url === '/bench.js';
    res.setHeader('content-type', js ? 'text/javascript' : 'text/html');
    res.end(js ? bundle : '<!doctype html><html><body><script src="/bench.js"></script></body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  // 127.0.0.1 is a secure context: getUserMedia works without TLS
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  const browsers: Browser[] = [];
  const launch = async () => {
    const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
    browsers.push(b);
    return b;
  };
  const open = async (browser: Browser): Promise<Page> => {
    const ctx = await browser.newContext({ permissions: ['camera', 'microphone'] });
    const page = await ctx.newPage();
    await page.exposeFunction('benchJoin', joinReply);
    page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
    await page.goto(base);
    return page;
  };

  const steps: Step[] = [];
  let stoppedBecause = `reached ${MAX} subscribers`;
  try {
    const teacher = await open(await launch());
    await teacher.evaluate(() =>
      (window as unknown as { benchCall: (n: string, r: string, d: object) => Promise<void> }).benchCall(
        'Teacher',
        'host',
        { camera: true, mic: true },
      ),
    );
    // the subscribers: one Chromium, a context (renderer process) each
    const subBrowser = await launch();
    const subs: Page[] = [];
    const measure = async (): Promise<Step> => {
      const frames = () =>
        Promise.all(subs.map((p) => p.evaluate(() => (window as unknown as { benchFrames(): number }).benchFrames())));
      const sent = () => teacher.evaluate(() => (window as unknown as { benchSent(): Promise<number> }).benchSent());
      const cpu0 = janus.cpuMs();
      const m0 = machineJiffies();
      const f0 = await frames();
      const s0 = await sent();
      const t0 = Date.now();
      await new Promise((r) => setTimeout(r, WINDOW_S * 1000));
      const cpu1 = janus.cpuMs();
      const m1 = machineJiffies();
      const f1 = await frames();
      const s1 = await sent();
      const secs = (Date.now() - t0) / 1000;
      const fps = f1.map((f, i) => (f - f0[i]!) / secs);
      const janusPct = ((cpu1 - cpu0) / (secs * 1000)) * 100;
      return {
        subscribers: subs.length,
        janusCpuPctOfCore: round(janusPct),
        janusCpuPctPerSubscriber: null,
        subscriberFpsMin: fps.length ? round(Math.min(...fps), 1) : null,
        subscriberFpsMean: fps.length ? round(fps.reduce((a, b) => a + b, 0) / fps.length, 1) : null,
        teacherFps: round((s1 - s0) / secs, 1),
        machineBusyPct: round(((m1.busy - m0.busy) / (m1.total - m0.total)) * 100, 1),
      };
    };

    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const alone = await measure();
    steps.push(alone);
    process.stdout.write(
      `calls bench: teacher alone: Janus ${alone.janusCpuPctOfCore} % of a core, teacher ${alone.teacherFps} fps\n`,
    );

    // 4, 8, … and MAX itself last (30: the lesson's size, measured rather than only extrapolated)
    for (let n = Math.min(STEP, MAX); ; n = Math.min(n + STEP, MAX)) {
      while (subs.length < n) {
        const p = await open(subBrowser);
        await p.evaluate(() =>
          (window as unknown as { benchCall: (n: string, r: string, d: object) => Promise<void> }).benchCall(
            `Student ${Math.random().toString(36).slice(2, 6)}`,
            'member',
            { camera: false, mic: false },
          ),
        );
        subs.push(p);
      }
      const end = Date.now() + 60_000;
      for (const p of subs)
        while (!(await p.evaluate(() => (window as unknown as { benchWatch(): boolean }).benchWatch()))) {
          if (Date.now() > end) throw new Error(`subscriber did not decode within 60 s at ${n} subscribers`);
          await new Promise((r) => setTimeout(r, 200));
        }
      await new Promise((r) => setTimeout(r, SETTLE_MS));
      const s = await measure();
      s.janusCpuPctPerSubscriber = round((s.janusCpuPctOfCore - alone.janusCpuPctOfCore) / n, 3);
      steps.push(s);
      process.stdout.write(
        `calls bench: ${n} subscribers: Janus ${s.janusCpuPctOfCore} % of a core (${s.janusCpuPctPerSubscriber} %/subscriber), ` +
          `decoded fps min ${s.subscriberFpsMin} mean ${s.subscriberFpsMean}, teacher ${s.teacherFps} fps, machine ${s.machineBusyPct} % busy\n`,
      );
      if (s.subscriberFpsMin !== null && s.subscriberFpsMin < 0.6 * s.teacherFps) {
        stoppedBecause = `saturated at ${n} subscribers: slowest subscriber decoded ${s.subscriberFpsMin} fps < 60 % of the teacher's ${s.teacherFps}`;
        break;
      }
      if (s.teacherFps < 0.6 * alone.teacherFps) {
        stoppedBecause = `saturated at ${n} subscribers: the teacher's encoder fell to ${s.teacherFps} fps (alone ${alone.teacherFps})`;
        break;
      }
      if (n >= MAX) break;
    }
  } finally {
    for (const b of browsers) await b.close().catch(() => undefined);
    server.close();
    await link.close().catch(() => undefined);
    await janus.stop();
  }

  const fit = linearFit(
    steps.map((s) => s.subscribers),
    steps.map((s) => s.janusCpuPctOfCore),
  );
  const at30 = fit.intercept + fit.slope * TARGET;
  const result = {
    setup:
      '1 teacher (Chromium, fake 640×360 camera + audio, VP8, room bitrate cap 512 kb/s) and N headless Chromium subscribers ' +
      '(one browser, a context each) receiving the teacher’s audio + video; Janus 1.1 VideoRoom in a network namespace',
    windowSeconds: WINDOW_S,
    steps,
    stoppedBecause,
    fit: {
      method: 'least squares: Janus CPU % of one core = intercept + slope × subscribers (teacher-only step included)',
      intercept: round(fit.intercept, 3),
      slopePctPerSubscriber: round(fit.slope, 4),
      r2: round(fit.r2, 3),
    },
    extrapolated30: {
      subscribers: TARGET,
      janusCpuPctOfCore: round(at30),
      note: 'the browsers, not Janus, are what this 2-core machine runs out of; at 30 real students each decodes on their own device',
    },
  };
  const path = writeBenchResult('calls', result);
  process.stdout.write(
    `calls bench: fit ${result.fit.intercept} + ${result.fit.slopePctPerSubscriber} × N % of a core (r² ${result.fit.r2}); ` +
      `30 subscribers → Janus ≈ ${result.extrapolated30.janusCpuPctOfCore} % of one core. ${stoppedBecause}. Wrote ${path}\n`,
  );
}

main().catch((err: unknown) => {
  process.stderr.write(`calls bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
