// The GraphQL IDE's start-up (served as /ui/ide.js, after React, ReactDOM and GraphiQL's UMD bundles):
// reads the page's settings from <script id="autograph-ide-config"> (routes/ide.ts writes them) and mounts
// GraphiQL. Plain requests to /graphql (no persisted queries); subscriptions over graphql-ws on the same URL,
// the headers editor's headers going in the connection_init payload (live/connection-auth.ts reads them there).
(function () {
  'use strict';
  var config = JSON.parse(document.getElementById('autograph-ide-config').textContent);
  var wsScheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  var fetcher = window.GraphiQL.createFetcher({
    url: config.endpoint,
    subscriptionUrl: wsScheme + '//' + window.location.host + config.endpoint,
  });
  var props = {
    fetcher: fetcher,
    defaultQuery: config.defaultQuery,
    isHeadersEditorEnabled: true,
    // Tokens typed into the headers editor are not written to the browser's storage.
    shouldPersistHeaders: false,
  };
  if (config.headers !== undefined) {
    props.defaultHeaders = config.headers;
    props.defaultEditorToolsVisibility = 'headers';
  }
  window.ReactDOM.createRoot(document.getElementById('graphiql')).render(window.React.createElement(window.GraphiQL, props));
})();
