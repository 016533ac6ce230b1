// The grounding tests' page (checkGrounding in test/library, `matrix --url` in test/matrix): two buttons,
// #b "Save" at CSS (100, 100) and #c "Other" at (300, 100), and a script that changes the page.

const BUTTONS =
  '<button id="b" style="position:absolute;left:100px;top:100px">Save</button><button id="c" style="position:absolute;left:300px;top:100px">Other</button>';

/** The page's HTML: `change` runs `at` ms after the page's script ran; `css` styles it. */
export const twoButtons = (change = '', at = 0, css = '') =>
  `<style>${css}</style>${BUTTONS}<script>setTimeout(() => { ${change} }, ${at});</script>`;

/**
 * A change that shifts #c 3 px when #b is pressed and puts it back when #c is pressed: at the end of each
 * run #c is where it was, and only a reading after #b's cell sees it moved.
 */
export const SHIFT_C_ON_B =
  "addEventListener('pointerdown', (e) => { const c = document.getElementById('c'); if (e.target.id === 'b') c.style.left = '303px'; if (e.target.id === 'c') c.style.left = '300px'; }, true);";
