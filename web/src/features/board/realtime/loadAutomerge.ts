/**
 * Automerge in the browser: the `/slim` entry (JS only) plus its wasm file as a separate hashed
 * asset, compiled with streaming instantiation on first use. The wasm is 3.6 MB (1.1 MB gzipped)
 * and belongs to the board route's chunk only; the gateway's CSP allows it with
 * 'wasm-unsafe-eval' (not 'unsafe-eval').
 */
import { initializeWasm, isWasmInitialized } from '@automerge/automerge/slim';
import wasmUrl from '@automerge/automerge/automerge.wasm?url';

let loading: Promise<void> | null = null;

export function loadAutomerge(): Promise<void> {
  if (isWasmInitialized()) return Promise.resolve();
  if (!loading) {
    performance.mark('wb:wasm-request');
    loading = initializeWasm(wasmUrl)
      .then(() => void performance.mark('wb:wasm-ready'))
      .catch((err: unknown) => {
        loading = null;
        throw err;
      });
  }
  return loading;
}
