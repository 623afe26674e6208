import { render } from 'preact';
import { App } from './app';
import { followLinksAtOnce } from './router';
import './ui/styles.css';

followLinksAtOnce();
render(<App />, document.getElementById('root')!);
