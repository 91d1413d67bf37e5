/**
 * MathJax itself (mathjax-full 3.2.2): TeX in, self-contained SVG out, on the lite DOM adaptor
 * (works the same in the browser and in jest/node). This module is the heavy one — only
 * mathjax.ts imports it, dynamically, when the first formula is rendered.
 *
 * Only the TeX packages a school formula needs are registered and enabled: base, ams (matrices,
 * aligned rows, \text, \operatorname), boldsymbol (vectors). Not html (\href, \class, \style),
 * newcommand (\def), require, unicode, autoload, noerrors or noundefined: those commands stay
 * unknown, so a TeX error is reported instead of running them. None of these modules uses eval
 * or new Function (MathJax's component loader does; it is not on this path).
 */
import { liteAdaptor } from 'mathjax-full/js/adaptors/liteAdaptor.js';
import type { LiteElement } from 'mathjax-full/js/adaptors/lite/Element.js';
import { RegisterHTMLHandler } from 'mathjax-full/js/handlers/html.js';
import { TeX } from 'mathjax-full/js/input/tex.js';
import 'mathjax-full/js/input/tex/ams/AmsConfiguration.js';
import 'mathjax-full/js/input/tex/base/BaseConfiguration.js';
import 'mathjax-full/js/input/tex/boldsymbol/BoldsymbolConfiguration.js';
import { mathjax } from 'mathjax-full/js/mathjax.js';
import { SVG } from 'mathjax-full/js/output/svg.js';

const adaptor = liteAdaptor();
RegisterHTMLHandler(adaptor);

const tex = new TeX({
  packages: ['base', 'ams', 'boldsymbol'],
  // a TeX error becomes an exception (its message goes to the editor), never a red box on the board
  formatError: (_jax: unknown, err: Error) => {
    throw err;
  },
});
const svg = new SVG({ fontCache: 'none' });
const doc = mathjax.document('', { InputJax: tex, OutputJax: svg });

/** TeX → the <svg> markup (display style); throws MathJax's TexError on bad input */
export function texToSvg(latex: string): string {
  const node = doc.convert(latex, { display: true, em: 16, ex: 8, containerWidth: 100000 }) as LiteElement;
  // convert() wraps the <svg> in an mjx-container
  return adaptor.outerHTML(adaptor.firstChild(node) as LiteElement);
}
