/// The inspector's page: one self-contained HTML document (styles and script inline, no
/// network access but the inspector's own API), served at `/`.
///
/// The script reads the token from the URL's fragment, keeps it in the tab's session storage
/// and a same-site cookie for this port, and sends it as a bearer header on every API call
/// (and as a query parameter on the event stream, which can't send headers).
enum InspectorPage {
  static let bytes = Array((InspectorPageStyle.html + InspectorPageScript.html).utf8)
}
