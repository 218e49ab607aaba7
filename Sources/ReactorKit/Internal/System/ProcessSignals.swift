#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

#if !os(Windows) && !os(WASI)
  /// The POSIX signal calls a flight recorder's export on termination needs
  /// (``SignalExport``), with safe signatures.
  enum ProcessSignals {
    /// Lets a dispatch signal source see `signal` instead of its default action ending the
    /// process. On Darwin that takes ignoring it (a kqueue source sees ignored signals); on
    /// Linux, libdispatch installs a handler of its own when the source is made, which
    /// ignoring would replace, so nothing is done.
    static func divertToDispatch(_ signal: Int32) {
      #if canImport(Darwin)
        setDisposition(of: signal, ignored: true)
      #endif
    }

    /// Ignores `signal`, on every platform (before its dispatch source is registered).
    static func ignore(_ signal: Int32) {
      setDisposition(of: signal, ignored: true)
    }

    /// Undoes ``divertToDispatch(_:)``: the signal's default action applies again (on Linux
    /// the source keeps receiving it, and its handler must act as the default would).
    static func restoreDefault(_ signal: Int32) {
      #if canImport(Darwin)
        setDisposition(of: signal, ignored: false)
      #endif
    }

    /// Ends the process as `signal`'s default action would: restores that action, unblocks
    /// the signal in the calling thread (libdispatch on Linux keeps it blocked in its
    /// threads) and raises it; should the process survive that (a signal whose default is to
    /// be ignored), exits with status 128 + `signal`.
    static func end(with signal: Int32) -> Never {
      setDisposition(of: signal, ignored: false)
      var set = sigset_t()
      unsafe sigemptyset(&set)
      unsafe sigaddset(&set, signal)
      unsafe pthread_sigmask(SIG_UNBLOCK, &set, nil)
      raise(signal)
      _exit(128 + signal)
    }

    /// Sets `signal`'s action: ignored, or the default.
    private static func setDisposition(of signal: Int32, ignored: Bool) {
      #if canImport(Darwin)
        _ = Darwin.signal(signal, ignored ? SIG_IGN : SIG_DFL)
      #elseif canImport(Glibc)
        _ = Glibc.signal(signal, ignored ? SIG_IGN : SIG_DFL)
      #elseif canImport(Musl)
        _ = Musl.signal(signal, ignored ? SIG_IGN : SIG_DFL)
      #endif
    }
  }
#endif
