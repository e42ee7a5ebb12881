/* index.html's compiler of the runtime's wasm on a return visit: compiled here, off the page's
   thread (V8 reads its code cache for it), and the module handed to the page, which restores the
   boot snapshot with it and hands it on to the AI worker (snap-loader.mjs). On any failure the
   page compiles it itself. */
WebAssembly.compileStreaming(fetch("./pyodide/pyodide.asm.wasm")).then(
  function (module) { postMessage({ module: module }); },
  function (err) { postMessage({ error: String(err && err.message || err) }); });
