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
