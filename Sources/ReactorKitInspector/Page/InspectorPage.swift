/// The inspector's page: one self-contained HTML document (styles and script inline, no
/// network access but the inspector's own API), served at `/`.
///
/// The script reads the token from the URL's fragment, moves it out of the address bar into
/// the history entry's state (`history.replaceState`, so a reload finds it again), keeps it in
/// memory otherwise, never in a cookie or storage, and sends it as a bearer header on every API
/// call, the event stream included (read with `fetch`).
enum InspectorPage {
  static let bytes = Array((InspectorPageStyle.html + InspectorPageScript.html).utf8)
}
