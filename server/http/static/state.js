// The page's state, shared by its modules (one object each: modules are singletons).

export const state = {
  file: null,            // the open file (null: the start page)
  view: null,            // /api/view of the open file
  selStart: null,        // selected lines in the open file
  selEnd: null,
  reported: "null",      // the last selection reported to the server (get_selection)
  files: [],             // /api/files
  filter: "",            // the file filter's text
  onlyThreads: false,    // show only files with threads
  focusId: null,         // a thread to focus once its file is shown
};

// What thread cards share: which are expanded, being edited, confirming a delete, moving;
// and the page's actions they call (set by app.js).
export const ui = {
  expanded: new Map(),
  editing: new Set(),
  confirming: new Set(),
  moving: new Set(),
  refresh: async () => {},
  rerender: () => {},
  selection: () => null,
};
