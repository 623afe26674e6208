// First the design tokens (src/design/tokens.ts, through the Vite plugin of vite.config.mts), the font and the
// kit, so that the pages' own stylesheets, imported by their modules below, come after them in the bundle.
import 'virtual:postwire-tokens.css';
import '@fontsource-variable/inter/wght.css';
import './ui/styles.css';
import { render } from 'preact';
import { App } from './app';
import { followLinksAtOnce } from './router';
import { applyTheme } from './ui/theme';

applyTheme();
followLinksAtOnce();
render(<App />, document.getElementById('root')!);
