// The dashboard's only script (served from /dashboard/assets/, no build step): asks before
// destructive form posts, and keeps a supplier's progress live by polling its progress.json
// every few seconds, redrawing the counts, the rate, the ETA and the uPlot chart.

const POLL_MS = 2000;

for (const form of document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}

function chartData(perMinute) {
  return [perMinute.map((m) => Date.parse(m.minute) / 1000), perMinute.map((m) => m.created)];
}

function makeChart(target) {
  if (!target || typeof window.uPlot !== 'function') return null;
  const width = () => Math.max(280, target.clientWidth || 600);
  const chart = new window.uPlot(
    {
      width: width(),
      height: 220,
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
      series: [{}, { label: 'Accounts created', stroke: '#1d5fbf', fill: 'rgba(29,95,191,0.15)', width: 2 }],
      axes: [{}, { label: 'per minute' }],
      legend: { show: false },
    },
    [[], []],
    target,
  );
  window.addEventListener('resize', () => chart.setSize({ width: width(), height: 220 }));
  return chart;
}

function render(section, chart, snap) {
  for (const [status, n] of Object.entries(snap.counts)) {
    const cell = section.querySelector(`[data-count="${status}"]`);
    if (cell) cell.textContent = String(n);
  }
  for (const field of ['rate_per_minute', 'remaining', 'eta', 'created_in_chart']) {
    const el = section.querySelector(`[data-field="${field}"]`);
    if (el) el.textContent = String(snap[field]);
  }
  const status = document.querySelector('[data-field="status"]');
  if (status) status.textContent = snap.status;
  const updated = section.querySelector('[data-field="updated"]');
  if (updated) updated.textContent = `Updated ${new Date().toLocaleTimeString()}.`;
  if (chart) chart.setData(chartData(snap.per_minute));
  section.dataset.updates = String(Number(section.dataset.updates || 0) + 1);
}

function startProgress(section) {
  const chart = makeChart(section.querySelector('[data-chart]'));
  const url = section.dataset.progressUrl;
  async function poll() {
    if (!document.hidden) {
      try {
        const res = await fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
        // Signed out elsewhere, or the session expired: the reload lands on the sign-in form.
        if (res.status === 401) return window.location.reload();
        if (res.ok) render(section, chart, await res.json());
      } catch {
        // The service is restarting or unreachable: try again at the next tick.
      }
    }
    setTimeout(poll, POLL_MS);
  }
  poll();
}

const progress = document.querySelector('[data-progress-url]');
if (progress) startProgress(progress);
