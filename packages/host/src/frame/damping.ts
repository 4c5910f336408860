/*
 * Which measured height the frame reports, so that sizing cannot loop. The frame's viewport is
 * the height the SDK gives it: a component sized by its viewport (`min-height: 100vh` with
 * padding, `min-height: 100%` with padding) measures taller each time the frame takes the height
 * it reported, without end.
 *
 * A change measured in an unchanged viewport is the content's own (a late image or font, a click,
 * new data): it is reported, smaller ones too. A change measured right after the frame's own
 * resize that moves as the viewport moved, by no more, is that resize's echo: not reported, so a
 * viewport-sized component keeps the height its content had in the smaller viewport. Any other
 * change after a resize (a layout for taller viewports) is reported once per content change; a
 * second one settles until the content changes again: back to a height seen before at the
 * tallest (an oscillation, so nothing is clipped), else at the content's height (a runaway, as
 * `200vh`). So a content change costs at most three changes of the frame's height.
 */

/** Takes each measurement (the content's height, the frame's viewport height) and returns the height to report. */
export function heightDamper(): (measured: number, viewport: number) => number {
  let height = -1;
  let lastMeasured = -1;
  let lastViewport = -1;
  // Heights reported since the content last changed, the content's own first.
  let reported: number[] = [];
  let settled = false;
  return (measured, viewport) => {
    const grew = measured - lastMeasured;
    const viewportGrew = lastViewport < 0 ? 0 : viewport - lastViewport;
    lastMeasured = measured;
    lastViewport = viewport;
    if (viewportGrew === 0) {
      if (grew !== 0) {
        reported = [(height = measured)];
        settled = false;
      }
    } else if (!settled && grew !== 0 && !(Math.sign(grew) === Math.sign(viewportGrew) && Math.abs(grew) <= Math.abs(viewportGrew))) {
      if (reported.length < 2 && !reported.includes(measured)) reported.push((height = measured));
      else {
        settled = true;
        height = reported.includes(measured) ? Math.max(...reported) : reported[0]!;
      }
    }
    return height;
  };
}
