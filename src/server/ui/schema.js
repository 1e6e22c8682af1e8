// The schema page (served at /admin/ui, this file as /ui/schema.js). It calls the admin endpoints only:
// GET /admin/schema, GET /admin/schema/history, GET /admin/schema/history/<n>, POST /admin/schema?dryRun=true
// and POST /admin/schema/history/<n>/activate[?dryRun=true][&force=true]. When the service answers 401 (an
// admin token is configured), it asks for the token and sends it as "Authorization: Bearer" from then on,
// keeping it in sessionStorage (this tab only). Everything the service answers is shown as text, never as HTML.
(function () {
  'use strict';

  var TOKEN_KEY = 'autograph-admin-token';
  var token = sessionStorage.getItem(TOKEN_KEY) || undefined;
  var selected; // the revision shown, if any

  function $(id) {
    return document.getElementById(id);
  }

  function element(tag, text, className) {
    var node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function setStatus(text) {
    $('status').textContent = text || '';
  }

  /** One admin call: { status, json, text }; a 401 opens the token form and rejects. */
  async function call(method, path, body) {
    var headers = {};
    if (token !== undefined) headers.authorization = 'Bearer ' + token;
    if (body !== undefined) headers['content-type'] = 'text/plain; charset=utf-8';
    var response = await fetch(path, { method: method, headers: headers, body: body, cache: 'no-store', credentials: 'same-origin' });
    var text = await response.text();
    var json;
    if ((response.headers.get('content-type') || '').indexOf('application/json') === 0) {
      try {
        json = JSON.parse(text);
      } catch (error) {
        json = undefined;
      }
    }
    if (response.status === 401) {
      askForToken(token === undefined ? '' : firstError(json) || 'the admin token is not valid');
      throw new Error('the admin endpoints need the admin token');
    }
    return { status: response.status, json: json, text: text };
  }

  function firstError(json) {
    return json && json.errors && json.errors[0] ? json.errors[0].message : undefined;
  }

  function askForToken(message) {
    token = undefined;
    sessionStorage.removeItem(TOKEN_KEY);
    $('main').hidden = true;
    $('token-section').hidden = false;
    $('token-message').textContent = message;
    $('token').focus();
  }

  // ---- the report of an upload, a dry run or a rollback ----

  function fieldText(entry) {
    return entry.type + '.' + entry.field + ': ' + entry.typeText;
  }

  function retypedText(entry) {
    return entry.type + '.' + entry.field + ': ' + entry.from + ' → ' + entry.to;
  }

  function changeText(change) {
    return change.type + ': ' + change.description;
  }

  function storedText(problem) {
    // The message names an example object already.
    return problem.kind + ': ' + problem.message + (problem.blocking ? ' [refuses without force]' : '');
  }

  function verdictOf(report) {
    if (report.needsForce) return { text: 'refused without force: stored objects would become unreadable', className: 'verdict refused' };
    if (report.breaksClients) return { text: 'accepted, but it breaks operations existing clients send', className: 'verdict error' };
    return { text: 'accepted: no breaking change', className: 'verdict ok' };
  }

  function renderReport(report) {
    var box = element('div');
    var verdict = verdictOf(report);
    box.appendChild(element('p', verdict.text, verdict.className + ' report-verdict'));
    var rows = [
      ['types added', report.types.added, String],
      ['types removed', report.types.removed, String],
      ['fields added', report.fields.added, fieldText],
      ['fields removed', report.fields.removed, fieldText],
      ['fields retyped', report.fields.retyped, retypedText],
      ['operations added', report.operations.added, String],
      ['operations removed', report.operations.removed, String],
      ['indexes created', report.indexes.created, String],
      ['indexes dropped', report.indexes.dropped, String],
      ['breaking changes', report.breakingChanges, changeText],
      ['dangerous changes', report.dangerousChanges, changeText],
      ['stored data', report.storedData, storedText],
    ];
    var list = element('dl');
    rows.forEach(function (row) {
      if (!row[1] || row[1].length === 0) return;
      list.appendChild(element('dt', row[0]));
      var dd = element('dd');
      var ul = element('ul');
      row[1].forEach(function (item) {
        ul.appendChild(element('li', row[2](item)));
      });
      dd.appendChild(ul);
      list.appendChild(dd);
    });
    if (list.childNodes.length === 0) box.appendChild(element('p', 'no changes'));
    else box.appendChild(list);
    var details = element('details');
    details.appendChild(element('summary', 'the report as JSON'));
    details.appendChild(element('pre', JSON.stringify(report, null, 2)));
    box.appendChild(details);
    return box;
  }

  /** An admin answer in `container`: its message (or errors), and its report when it has one. */
  function renderAnswer(container, answer) {
    container.textContent = '';
    var json = answer.json;
    if (!json) {
      container.appendChild(element('p', answer.status + ': ' + answer.text, 'error'));
      return;
    }
    if (json.errors) {
      var errors = element('ul', undefined, 'error answer-errors');
      json.errors.forEach(function (error) {
        var where = (error.locations || []).map(function (l) { return l.line + ':' + l.column; }).join(', ');
        var code = error.extensions && error.extensions.code ? ' [' + error.extensions.code + ']' : '';
        errors.appendChild(element('li', (where ? where + ' ' : '') + error.message + code));
      });
      container.appendChild(element('p', 'refused (' + answer.status + ')', 'verdict refused answer-message'));
      container.appendChild(errors);
      if (json.extensions && json.extensions.report) container.appendChild(renderReport(json.extensions.report));
      return;
    }
    var data = json.data || {};
    var message = data.message || 'done';
    if (data.wouldActivate !== undefined) message += data.wouldActivate ? ' (it would be activated)' : ' (it would be refused without force)';
    if (data.revision !== undefined) message += ' as revision ' + data.revision;
    container.appendChild(element('p', message, 'answer-message'));
    if (data.report) container.appendChild(renderReport(data.report));
  }

  // ---- the active schema and the history ----

  async function loadActive() {
    var answer = await call('GET', '/admin/schema');
    if (answer.status === 200) {
      $('active-schema').textContent = answer.text;
      $('active-schema').hidden = false;
    } else {
      $('active-schema').textContent = '';
      $('active-schema').hidden = true;
      $('active-summary').textContent = firstError(answer.json) || answer.status + ': ' + answer.text;
      return false;
    }
    return true;
  }

  async function loadHistory(hasActive) {
    var answer = await call('GET', '/admin/schema/history');
    var body = $('history').querySelector('tbody');
    body.textContent = '';
    if (answer.status !== 200 || !answer.json || !answer.json.data) {
      setStatus('cannot read the history: ' + (firstError(answer.json) || answer.status));
      return;
    }
    var history = answer.json.data;
    if (hasActive) {
      $('active-summary').textContent = history.active === null ? 'served, not found in the history' : 'revision ' + history.active;
    }
    history.revisions.forEach(function (entry) {
      var row = element('tr');
      row.dataset.revision = String(entry.revision);
      if (entry.revision === history.active) row.className = 'active';
      var notes = [];
      if (entry.revision === history.active) notes.push('active');
      if (entry.restoredFrom !== undefined) notes.push('rollback to ' + entry.restoredFrom);
      if (entry.forced) notes.push('forced');
      if (entry.lambda) notes.push('lambda ' + entry.lambda.hash.slice(0, 8));
      [String(entry.revision), entry.activatedAt, entry.hash.slice(0, 12), notes.join(', ')].forEach(function (text) {
        row.appendChild(element('td', text));
      });
      var cell = element('td');
      var show = element('button', 'Show', 'show-revision');
      show.type = 'button';
      show.addEventListener('click', function () {
        showRevision(entry.revision).catch(report);
      });
      cell.appendChild(show);
      row.appendChild(cell);
      body.appendChild(row);
    });
    if (history.revisions.length === 0) {
      var empty = element('tr');
      var cell = element('td', 'no revision yet: upload a schema (POST /admin/schema)');
      cell.colSpan = 5;
      empty.appendChild(cell);
      body.appendChild(empty);
    }
  }

  async function showRevision(revision) {
    selected = revision;
    $('revision').hidden = false;
    $('revision-title').textContent = 'Revision ' + revision;
    $('rollback').textContent = 'Roll back to revision ' + revision;
    $('rollback-answer').textContent = '';
    $('revision-report').textContent = 'asking the service…';
    var text = await call('GET', '/admin/schema/history/' + revision);
    $('revision-text').textContent = text.status === 200 ? text.text : firstError(text.json) || text.text;
    renderAnswer($('revision-report'), await call('POST', '/admin/schema/history/' + revision + '/activate?dryRun=true'));
  }

  async function rollback() {
    if (selected === undefined) return;
    var path = '/admin/schema/history/' + selected + '/activate' + ($('rollback-force').checked ? '?force=true' : '');
    $('rollback').disabled = true;
    try {
      var answer = await call('POST', path);
      renderAnswer($('rollback-answer'), answer);
      if (answer.status === 200) await refresh();
    } finally {
      $('rollback').disabled = false;
    }
  }

  async function dryRun() {
    var text = $('dry-run-text').value;
    $('dry-run-report').textContent = 'asking the service…';
    renderAnswer($('dry-run-report'), await call('POST', '/admin/schema?dryRun=true', text));
  }

  async function refresh() {
    var hasActive = await loadActive();
    await loadHistory(hasActive);
    $('token-section').hidden = true;
    $('main').hidden = false;
    setStatus('');
  }

  function report(error) {
    if (!$('token-section').hidden) return; // a 401: the token form says it
    setStatus(String(error && error.message ? error.message : error));
  }

  $('token-form').addEventListener('submit', function (event) {
    event.preventDefault();
    token = $('token').value.trim();
    sessionStorage.setItem(TOKEN_KEY, token);
    $('token-message').textContent = '';
    refresh().catch(report);
  });
  $('dry-run').addEventListener('click', function () {
    dryRun().catch(report);
  });
  $('rollback').addEventListener('click', function () {
    rollback().catch(report);
  });

  setStatus('loading…');
  refresh().catch(report);
})();
