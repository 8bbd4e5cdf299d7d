// Every page: times in the visitor's own zone, and a confirmation before forms that ask for one.
export function localTimes(root = document) {
  for (const t of root.querySelectorAll('time[datetime]')) {
    const d = new Date(t.dateTime);
    if (!isNaN(d)) t.textContent = d.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
  }
}
localTimes();
document.addEventListener('submit', (e) => {
  const ask = e.target.dataset.confirm;
  if (ask && !window.confirm(ask)) e.preventDefault();
});
// A choice that shows a picture and a text of what is chosen (the new-game page's variant).
for (const select of document.querySelectorAll('select[data-preview]')) {
  const show = () => {
    const option = select.selectedOptions[0];
    const img = document.getElementById(select.dataset.preview);
    const text = document.getElementById(select.dataset.summary);
    if (img && option) { img.src = `/variants/${option.value}/start.svg`; img.alt = `The start of ${option.text}`; }
    if (text && option) text.textContent = option.dataset.summary ?? '';
  };
  select.addEventListener('change', show);
}
// A list that follows my events (my games): redrawn from the page itself on each.
const list = document.querySelector('[data-live-list]');
if (list) {
  // One redraw at a time: events arriving meanwhile (a busy list of public games) ask for
  // one more after it, not one each.
  let drawing = null, again = false;
  const draw = async () => {
    const r = await fetch(window.location.href);
    if (!r.ok || r.redirected) return;
    const fresh = new DOMParser().parseFromString(await r.text(), 'text/html').getElementById(list.id);
    if (fresh) { list.replaceChildren(...fresh.childNodes); localTimes(list); }
  };
  const redraw = async () => {
    if (drawing) { again = true; return drawing; }
    drawing = (async () => {
      do { again = false; await draw().catch(() => {}); } while (again);
      drawing = null;
    })();
    return drawing;
  };
  const events = new EventSource(list.dataset.liveList);
  events.onmessage = redraw;
  events.onopen = async () => { await redraw(); list.dataset.live = 'open'; };
}
