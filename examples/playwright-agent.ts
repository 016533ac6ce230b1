// A Playwright agent loop: your own Playwright page, trueclick on top of it (trueclickForPage), and the Claude
// loop of examples/agents/claude.ts answering through a scripted stand-in for the model (no network). To run a
// real model, pass `new Anthropic()` as the client instead of claudeStandIn(…).
//
//   npm run build && node dist/examples/playwright-agent.js
import type { Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { startFixtureServer } from '../fixtures/server.js';
import { CHROMIUM_ARGS } from '../src/browser/plumbing/launch.js';
import { trueclickForPage } from '../src/index.js';
import { claudeStandIn, runClaudeAgent } from './agents/claude.js';
import type { AgentSummary } from './agents/loop.js';
import { isMain, type PlanStep, pagePerception } from './agents/stand-in.js';

/** Runs the task on the page with trueclick checking every action against the screenshot the model saw. */
export async function runPlaywrightAgent(page: Page, task: string, plan: PlanStep[]): Promise<AgentSummary> {
  const session = await trueclickForPage(page);
  try {
    return await runClaudeAgent({
      session,
      task,
      client: claudeStandIn({ perceive: pagePerception(session), plan }),
    });
  } finally {
    await session.close();
  }
}

if (isMain(import.meta.url)) {
  const srv = await startFixtureServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    // A laptop's screen: devicePixelRatio 2, so the model's screenshot pixels are not CSS px.
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 2 });
    await page.goto(srv.url('/rw/list', { run: 'playwright-agent' }));
    await page.waitForFunction(() => (window as unknown as { rw?: { ready?: boolean } }).rw?.ready === true);
    const summary = await runPlaywrightAgent(page, 'Archive ticket TCK-7741', [
      { do: 'click', target: { role: 'link', name: 'Archive', within: 'TCK-7741' } },
    ]);
    console.log('verdicts:', summary.verdicts.join(', '), '| final:', summary.final);
    console.log(
      'server action log:',
      JSON.stringify(srv.actions({ run: 'playwright-agent' }).map((a) => [a.do, a.id])),
    );
  } finally {
    await browser.close();
    await srv.close();
  }
}
