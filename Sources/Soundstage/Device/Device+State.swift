
// The device's state, closing, and what Buffer and Scene use.
extension Device {
    // MARK: State

    /// Whether ``close()`` has run.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// The OpenAL objects this device holds now: itself, its contexts, buffers and sources.
    public var liveObjects: LiveObjectCounts {
        let (closed, scenes, buffers) = state.withLock { ($0.closed, $0.scenes.compactMap(\.scene), $0.buffers.count) }
        if closed { return LiveObjectCounts() }
        var counts = LiveObjectCounts(devices: 1, contexts: 1, buffers: buffers, sources: 0)
        for scene in scenes where !scene.isClosed {
            if scene.ownsContext { counts.contexts += 1 }
            counts.sources += scene.allocatedSourceCount
            counts.buffers += scene.streamBufferCount
            let effects = scene.effectObjectCounts
            counts.effectSlots += effects.slots
            counts.effects += effects.effects
            counts.filters += effects.filters
        }
        return counts
    }

    /// Closes every scene, frees every buffer and closes the OpenAL device. Idempotent.
    /// Objects still referenced afterwards report `.released` errors.
    public func close() {
        // Play out what the desktop stream still holds before anything goes (no cut tails).
        desktop?.stop(drain: true)
        // A recording of the mix ends with the last chunk sent out, its file complete.
        stopRecordingOutput()
        // The cache's buffers are taken out too, so their deinit runs after the lock is released.
        let taken = state.withLock { state -> (scenes: [Scene], buffers: [ALName], cache: [String: Buffer])? in
            guard !state.closed else { return nil }
            state.closed = true
            let taken = (state.scenes.compactMap(\.scene), state.buffers.values.map(\.id), state.cache)
            state.scenes.removeAll()
            state.buffers.removeAll()
            state.cache.removeAll()
            return taken
        }
        guard let taken else { return }
        poller?.stop()
        for scene in taken.scenes { scene.close() }
        excludingRender {
            if !taken.buffers.isEmpty {
                try? OpenAL.withContext(resourceContext) { al throws(SoundstageError) in
                    al.deleteBuffers(taken.buffers)
                }
                LiveObjects.buffers.subtract(taken.buffers.count, ordering: .relaxed)
            }
            resourceContext.withLock { $0.destroy() }
            LiveObjects.contexts.subtract(1, ordering: .relaxed)
            handle.close()
            LiveObjects.devices.subtract(1, ordering: .relaxed)
        }
        withExtendedLifetime(taken.cache) {}
    }

    /// Pauses or resumes a real output's mixing (ALC_SOFT_pause_device); used by the session
    /// center when no session may sound. Loopback devices only mix when rendered.
    func setOutputPaused(_ paused: Bool) {
        if let desktop { return desktop.setPaused(paused) }
        setOpenALPaused { $0.session = paused }
    }

    /// Pauses or resumes an OpenAL output for its rest (``Poller``); a session's pause stands.
    func setRestPaused(_ paused: Bool) {
        setOpenALPaused { $0.rest = paused }
    }

    private func setOpenALPaused(_ change: (inout (session: Bool, rest: Bool)) -> Void) {
        guard kind == .output, !isClosed else { return }
        openALPauses.withLockedValue { pauses in
            let was = pauses.session || pauses.rest
            change(&pauses)
            let paused = pauses.session || pauses.rest
            if paused != was { handle.setPaused(paused) }
        }
    }

    // MARK: Internals used by Buffer and Scene

    /// Records a new buffer so ``close()`` and migrations can find it; false if the device is closed.
    func adopt(_ buffer: Buffer) -> Bool {
        state.withLock { state in
            guard !state.closed else { return false }
            state.buffers[ObjectIdentifier(buffer)] = BufferRecord(buffer: buffer, id: buffer.id)
            return true
        }
    }

    /// Frees a buffer's OpenAL name exactly once: here (its deinit), or in ``close()`` if that came first.
    func forget(_ buffer: Buffer) {
        guard let record = state.withLock({ $0.buffers.removeValue(forKey: ObjectIdentifier(buffer)) }) else { return }
        Buffer.delete(record.id, in: resourceContext)
    }

    /// Forgets a scene that closed (from `close()` or its deinit), by identity alone.
    func sceneClosed(_ scene: Scene, returningContext: Bool = false) {
        let id = ObjectIdentifier(scene)
        state.withLock { state in
            state.scenes.removeAll { $0.id == id }
            // The context comes back holding that scene's listener settings and parked effect
            // slots (OpenAL Soft must not have slots deleted from a living context): the next
            // scene to borrow it gets a fresh one instead (see makeScene).
            if returningContext {
                state.resourceContextLent = false
                state.resourceContextUsed = true
            }
        }
    }
}
