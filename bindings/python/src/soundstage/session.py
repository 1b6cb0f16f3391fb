"""Audio sessions: a category, activation and interruptions (as AVAudioSession's)."""
from . import _ffi
from ._handles import Handle, find, register, value
from ._library import lib
from .errors import check
from .types import Category, InterruptionReason, SessionEvent, SessionEventKind, SessionOptions, SessionState


@_ffi.ss_session_callback
def _session_event(_session, event, user_data):
    function = find(user_data)
    if function and event:
        e = event.contents
        function(SessionEvent(SessionEventKind(e.kind), InterruptionReason(e.reason), bool(e.should_resume),
                              e.duck_gain, e.time))


class Session(Handle):
    """An audio session on a device: attached scenes sound only while it is active."""

    _destroy = "ss_session_destroy"

    def set_category(self, category, options=SessionOptions.NONE):
        """Changes the category and options."""
        check(lib.ss_session_set_category(self, int(category), int(options)))

    @property
    def active(self):
        """Whether active (set it to activate or deactivate)."""
        return self.state.active

    @active.setter
    def active(self, active):
        check(lib.ss_session_set_active(self, int(bool(active))))

    def attach(self, thing):
        """Puts a Scene or a SoundRegistry under the session."""
        from .scene import Scene
        if isinstance(thing, Scene):
            check(lib.ss_session_attach_scene(self, thing))
        else:
            check(lib.ss_session_attach_registry(self, thing))

    def begin_interruption(self):
        """Interrupts it (as a phone call would): what plays pauses."""
        check(lib.ss_session_begin_interruption(self))

    def end_interruption(self, should_resume=True):
        """Ends an interruption; with `should_resume` what played resumes from its offsets."""
        check(lib.ss_session_end_interruption(self, int(bool(should_resume))))

    def interruption(self, should_resume=True):
        """A context manager: interrupted inside, resumed (or not) on leaving."""
        session = self

        class _Interruption:
            def __enter__(self):
                session.begin_interruption()
                return session

            def __exit__(self, *exc):
                session.end_interruption(should_resume)
                return False
        return _Interruption()

    @property
    def state(self):
        """Its SessionState."""
        raw = value(lib.ss_session_get_state, _ffi.ss_session_state, self)
        return SessionState(Category(raw.category), SessionOptions(raw.options), bool(raw.active),
                            bool(raw.interrupted), bool(raw.ducked))

    def on_event(self, function):
        """Calls function(SessionEvent) for each event, on the thread whose call caused it; None
        removes it."""
        key = register(function) if function else None
        check(lib.ss_session_set_callback(self, _session_event if function else _ffi.ss_session_callback(), key))
        self._set_callback("events", key)

