import type { ApprovalRequest } from '../actions/approval/request.js';

// The approval page's HTML: plain, no script but the one that refreshes the "now" picture, every image
// served by the page itself (its CSP allows nothing else).

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:24px;color:#1d1d1f;max-width:1560px}
h1{font-size:20px;margin:0 0 6px}
.why{color:#555;margin:0 0 14px}
.pics{display:flex;flex-direction:column;gap:12px;margin:0 0 18px}
figure{margin:0;border:1px solid #ccc;border-radius:6px;padding:8px;background:#fafafa}
figcaption{font-size:13px;color:#333;margin:0 0 6px}
img{display:block;max-width:1200px;width:100%;height:auto;border:1px solid #ddd}
form{display:flex;gap:12px;align-items:center}
button{font:inherit;padding:8px 22px;border-radius:6px;border:1px solid #888;cursor:pointer}
.approve{background:#c62828;color:#fff;border-color:#8e0000}
.deny{background:#fff}
.note{font-size:13px;color:#555}
.answered{padding:10px 14px;border-radius:6px;background:#eef3fb;border:1px solid #b5c7e6}
`;

/** The person's answer on the page. */
export interface PageDecision {
  approved: boolean;
  at: number;
}

export interface PageView {
  request: ApprovalRequest;
  /** How old the frame is now, as a person reads it ("4 min 5 s"). */
  frameAge: string | null;
  /** How long ago the agent asked. */
  asked: string;
  decision: PageDecision | null;
  nonce: string;
  /** This page's own URL (the images and the form are below it). */
  base: string;
}

export function approvalPageHtml(v: PageView): string {
  const r = v.request;
  const frame = r.frame ? `frame ${esc(r.frame)}${v.frameAge ? `, ${esc(v.frameAge)} old` : ''}` : 'no frame';
  const answer = v.decision
    ? `<p class="answered" id="answered">You ${v.decision.approved ? 'approved' : 'denied'} this press at ${new Date(v.decision.at).toLocaleTimeString()}. ${v.decision.approved ? 'trueclick checks the page again and presses only if it still shows what you approved; the agent is told either way.' : 'Nothing is pressed.'}</p>`
    : `<form method="post" action="${esc(v.base)}">
  <button class="approve" name="answer" value="approve" id="approve">Approve</button>
  <button class="deny" name="answer" value="deny" id="deny">Deny</button>
  <span class="note">At your yes trueclick checks the page again and presses nothing if it changed.</span>
</form>`;
  const then = r.crop
    ? `<figure><figcaption>What the agent saw (${frame}), the point marked</figcaption><img id="then" alt="the frame around the point" src="${esc(v.base)}/then.png"></figure>`
    : '';
  const now = `<figure><figcaption>The same region now (refreshed every 2 s)</figcaption><img id="now" alt="the page now around the point" src="${esc(v.base)}/now.png"></figure>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Approve: ${esc(r.sentence)}</title>
<meta name="viewport" content="width=device-width">
<style nonce="${v.nonce}">${STYLE}</style></head>
<body>
<h1 id="sentence">An agent asks to ${esc(lowerFirst(r.sentence))}</h1>
<p class="why">Why you are asked: ${esc(r.reason)}. Asked ${esc(v.asked)} ago.</p>
<div class="pics">${then}${now}</div>
${answer}
<script nonce="${v.nonce}">
const img = document.getElementById('now');
setInterval(() => { img.src = ${JSON.stringify(`${v.base}/now.png`)} + '?t=' + Date.now(); }, 2000);
</script>
</body></html>`;
}

export function closedPageHtml(text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>trueclick approval</title></head><body><p>${esc(text)}</p></body></html>`;
}

const lowerFirst = (s: string) => `${s[0]?.toLowerCase() ?? ''}${s.slice(1)}`;
