// Every page while signed in: how many games wait for my move, in the tab's title ("(2) My
// games · taflbot") and on its icon, and, when I opted in and the tab is hidden, a browser
// notification as a game starts waiting for me.
// One tab of the browser follows my events (it holds a Web Lock) and tells the others over a
// BroadcastChannel, so ten open tabs spend one of my live streams, not ten.
const baseTitle = document.title;
const icon = document.querySelector('link[rel=icon]');
const plainIcon = icon?.href;
const OPT_IN = 'taflbot-notifications';
let iconText = null;
let waiting = null; // ids of the games that waited for me at the last look

async function badge(count) {
  if (!iconText) iconText = await (await fetch(plainIcon)).text();
  const label = count > 9 ? '9+' : String(count);
  const mark = `<circle cx="22" cy="10" r="10" fill="#d32f2f"/><text x="22" y="14.5" font-family="sans-serif" font-size="13" font-weight="700" text-anchor="middle" fill="#fff">${label}</text>`;
  return `data:image/svg+xml,${encodeURIComponent(iconText.replace('</svg>', `${mark}</svg>`))}`;
}

async function show(count) {
  document.title = count > 0 ? `(${count}) ${baseTitle}` : baseTitle;
  document.documentElement.dataset.turns = String(count);
  if (icon) icon.href = count > 0 ? await badge(count).catch(() => plainIcon) : plainIcon;
}

function notifying() {
  return localStorage.getItem(OPT_IN) === 'on' && 'Notification' in window
    && window.Notification.permission === 'granted';
}

function tell(game) {
  if (!document.hidden || !notifying()) return;
  const note = new window.Notification(`Your move against ${game.opponent}`, {
    body: `${game.variant}, after ${game.ply} moves`,
    tag: `taflbot-game-${game.id}`,
    icon: plainIcon,
  });
  note.onclick = () => { window.focus(); window.location.href = `/games/${game.id}`; };
}

// One look at a time; a change during a look asks for one more.
let looking = null;
let again = false;
async function look(mayTell) {
  if (looking) { again = again || mayTell; return looking; }
  looking = (async () => {
    const r = await fetch('/me/turns', { headers: { Accept: 'application/json' } });
    if (!r.ok || r.redirected) return;
    const turns = await r.json();
    await show(turns.count);
    if (mayTell && waiting) for (const g of turns.games) if (!waiting.has(g.id)) tell(g);
    waiting = new Set(turns.games.map((g) => g.id));
  })().catch(() => {}).finally(() => {
    looking = null;
    if (again) { const tellToo = again; again = false; look(tellToo); }
  });
  return looking;
}

const channel = 'BroadcastChannel' in window ? new BroadcastChannel('taflbot-me') : null;
channel?.addEventListener('message', () => look(false));

// Held until the tab closes: the stream of my events, and the notifications it may raise.
function follow() {
  return new Promise(() => {
    const events = new EventSource('/me/live');
    events.onmessage = () => { look(true); channel?.postMessage('changed'); };
    events.onopen = () => { look(true); channel?.postMessage('changed'); document.documentElement.dataset.turnsLive = 'open'; };
  });
}
if (navigator.locks && channel) navigator.locks.request('taflbot-me-live', follow);
else follow();
look(false);
document.addEventListener('visibilitychange', () => { if (!document.hidden) look(false); });

// The opt-in button in the bar: asks the browser's permission once, then turns on and off.
const button = document.getElementById('notify-toggle');
function label() {
  if (!button) return;
  const blocked = 'Notification' in window && window.Notification.permission === 'denied';
  button.setAttribute('aria-pressed', String(notifying()));
  button.textContent = blocked ? 'Notifications blocked' : notifying() ? 'Notifications: on' : 'Notify me of my turn';
  button.title = blocked
    ? 'This browser blocks notifications from this site: allow them in its site settings'
    : 'A notification when a game waits for your move while this tab is hidden';
}
if (button && 'Notification' in window) {
  button.hidden = false;
  label();
  button.addEventListener('click', async () => {
    if (notifying()) localStorage.setItem(OPT_IN, 'off');
    else if (await window.Notification.requestPermission() === 'granted') localStorage.setItem(OPT_IN, 'on');
    label();
  });
}
