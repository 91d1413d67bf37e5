/**
 * Media really flows through the board's room: Janus runs in a network namespace (it offers no
 * loopback candidates) joined to the host by a veth pair; one headless Chromium on the host with
 * fake devices plays a publisher (640×360 + audio) and a subscriber, each in its own page, while
 * this test does the Janus signalling with the tokens the calls service handed out. Also checks
 * that the host's mute-all stops the publisher's audio at Janus and that lifting it resumes it.
 * Needs root (ip netns) and Debian's Chromium; the full two-browser call through the web app is
 * web/e2e's (brief C2).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { connectBus, createLogger } from '@wb/platform';
import type { Bus, RunningService } from '@wb/platform';
import { eventually, startStack } from '@wb/platform/testing';
import type { RunningStack } from '@wb/platform/testing';
import { PLANS } from '@wb/proto';
import type { CallJoinReply } from '@wb/proto';
import { startFakeParties } from '../src/testing/fakeParties';
import { startJanus } from '../src/testing/janus';
import type { StartedJanus } from '../src/testing/janus';
import { JanusTestClient } from '../src/testing/janusClient';

const CHROMIUM = '/usr/bin/chromium';
const ready = existsSync(CHROMIUM) && process.getuid?.() === 0;
const log = createLogger({ service: 'test', level: 'silent' });
const BOARD = `media-board-${Date.now()}`;
const OWNER = 11;
const STUDENT = 12;
const TEACHER_VIEWER = 13;

let janus: StartedJanus;
let stack: RunningStack;
let bus: Bus;
let browser: Browser;
let page: http.Server;
let pageUrl: string;
const fakes: RunningService[] = [];
const clients: JanusTestClient[] = [];

(ready ? describe : describe.skip)('media through the board’s room (Janus in a network namespace)', () => {
  beforeAll(async () => {
    janus = await startJanus({ netns: true });
    stack = await startStack({
      deployables: ['services/calls'],
      env: {
        JANUS_WS_URL: janus.wsUrl,
        JANUS_API_SECRET: janus.secrets.apiSecret,
        JANUS_TOKEN_SECRET: janus.secrets.tokenSecret,
        JANUS_ADMIN_SECRET: janus.secrets.adminSecret,
        PLAN_CACHE_TTL_MS: '0',
      },
    });
    bus = await connectBus({
      url: stack.env.NATS_URL!,
      prefix: stack.natsPrefix,
      name: 'test',
      log,
      ensureStream: false,
    });
    fakes.push(
      ...(await startFakeParties(bus, log, {
        plan: () => PLANS.standard,
        access: (boardId, uid) =>
          boardId !== BOARD
            ? null
            : {
                ownerId: OWNER,
                access: uid === OWNER ? 'own' : uid === STUDENT || uid === TEACHER_VIEWER ? 'edit' : 'none',
              },
      })),
    );
    // getUserMedia needs a secure context: http://127.0.0.1 is one
    page = http.createServer((_req, res) => res.end('<!doctype html><title>call</title>'));
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        // host candidates must carry the veth address, not an mDNS name Janus cannot resolve
        '--disable-features=WebRtcHideLocalIpsWithMdns',
      ],
    });
  }, 120_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    await browser?.close();
    page?.close();
    for (const f of fakes) await f.stop();
    await bus?.drain();
    await stack?.stop();
    await janus?.stop();
  });

  const join = async (userId: number) =>
    (await bus.request<CallJoinReply>('calls', 'join', { boardId: BOARD }, { userId })).data;

  async function openPage(): Promise<Page> {
    const p = await browser.newPage();
    await p.goto(pageUrl);
    return p;
  }

  /** what a browser does: a session and a VideoRoom handle with its token */
  async function janusHandle(reply: CallJoinReply) {
    const c = await JanusTestClient.open(janus.wsUrl);
    clients.push(c);
    const session = await c.createSession(reply.token);
    const handle = await c.attach(session, reply.token);
    return { c, session, handle };
  }

  /** the page's SDP once ICE gathering is complete (no trickle: the candidates are in it) */
  const GATHERED = `new Promise((resolve) => {
    if (pc.iceGatheringState === 'complete') return resolve();
    pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
  })`;

  it('a subscriber decodes the publisher’s 640×360 video and hears its audio; mute-all stops the audio at Janus', async () => {
    const cpuBefore = janus.cpuMs();
    // the student publishes
    const pub = await join(STUDENT);
    const p1 = await janusHandle(pub);
    const joined = await p1.c.message(
      p1.session,
      p1.handle,
      { request: 'join', ptype: 'publisher', room: pub.room, display: pub.display, token: pub.token },
      pub.token,
    );
    expect(joined.data.videoroom).toBe('joined');
    const feed = joined.data.id as number;
    const publisherPage = await openPage();
    const offer = await publisherPage.evaluate(`(async () => {
      const pc = new RTCPeerConnection({ iceServers: [] });
      window.pc = pc;
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: { width: 640, height: 360 } });
      for (const track of stream.getTracks()) pc.addTransceiver(track, { direction: 'sendonly', streams: [stream] });
      await pc.setLocalDescription(await pc.createOffer());
      await ${GATHERED};
      return { type: pc.localDescription.type, sdp: pc.localDescription.sdp };
    })()`);
    const published = await p1.c.message(
      p1.session,
      p1.handle,
      { request: 'publish', audio: true, video: true },
      pub.token,
      { ...(offer as { type: string; sdp: string }), trickle: false } as { type: string; sdp: string },
    );
    expect(published.data.configured).toBe('ok');
    await publisherPage.evaluate(
      `window.pc.setRemoteDescription(${JSON.stringify({ type: published.jsep!.type, sdp: published.jsep!.sdp })})`,
    );
    await p1.c.nextEvent((m) => m.janus === 'webrtcup' && m.sender === p1.handle, 20_000);

    // another participant subscribes to the student's feed
    const sub = await join(TEACHER_VIEWER);
    const s1 = await janusHandle(sub);
    const attached = await s1.c.message(
      s1.session,
      s1.handle,
      { request: 'join', ptype: 'subscriber', room: sub.room, streams: [{ feed }], token: sub.token },
      sub.token,
    );
    expect(attached.data.videoroom).toBe('attached');
    const subscriberPage = await openPage();
    const answer = await subscriberPage.evaluate(`(async () => {
      const pc = new RTCPeerConnection({ iceServers: [] });
      window.pc = pc;
      await pc.setRemoteDescription(${JSON.stringify({ type: attached.jsep!.type, sdp: attached.jsep!.sdp })});
      await pc.setLocalDescription(await pc.createAnswer());
      await ${GATHERED};
      return { type: pc.localDescription.type, sdp: pc.localDescription.sdp };
    })()`);
    const started = await s1.c.message(s1.session, s1.handle, { request: 'start' }, sub.token, {
      ...(answer as { type: string; sdp: string }),
      trickle: false,
    } as { type: string; sdp: string });
    expect(started.data.started).toBe('ok');

    const stats = async () =>
      (await subscriberPage.evaluate(`(async () => {
        const out = { frames: 0, width: 0, height: 0, audioPackets: 0 };
        (await window.pc.getStats()).forEach((s) => {
          if (s.type !== 'inbound-rtp') return;
          if (s.kind === 'video') Object.assign(out, { frames: s.framesDecoded || 0, width: s.frameWidth || 0, height: s.frameHeight || 0 });
          if (s.kind === 'audio') out.audioPackets = s.packetsReceived || 0;
        });
        return out;
      })()`)) as { frames: number; width: number; height: number; audioPackets: number };
    await eventually(async () => (await stats()).frames > 30, 30_000, 250);
    const decoded = await stats();
    expect(decoded).toMatchObject({ width: 640, height: 360 });
    expect(decoded.audioPackets).toBeGreaterThan(0);

    // the host mutes everyone: Janus stops relaying the student's audio (video goes on)
    const audioFlowing = async (): Promise<boolean> => {
      const a = await stats();
      await new Promise((r) => setTimeout(r, 1500));
      const b = await stats();
      return b.audioPackets > a.audioPackets + 10;
    };
    expect((await bus.request('calls', 'muteAll', { boardId: BOARD }, { userId: OWNER })).data).toEqual({ muted: 1 });
    await eventually(async () => !(await audioFlowing()), 15_000, 0);
    expect((await stats()).frames).toBeGreaterThan(decoded.frames);
    // and lifts it
    await bus.request('calls', 'muteAll', { boardId: BOARD, mute: false }, { userId: OWNER });
    await eventually(audioFlowing, 15_000, 0);
    // the host's own feeds stay untouched when named in `keep`
    expect((await bus.request('calls', 'muteAll', { boardId: BOARD, keep: [feed] }, { userId: OWNER })).data).toEqual({
      muted: 0,
    });

    // the figure the issue asks for
    console.log(
      `Janus CPU for one 640×360 publisher + one subscriber during the test: ${janus.cpuMs() - cpuBefore} ms`,
    );
  }, 120_000);
});
