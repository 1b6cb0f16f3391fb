import COpenAL

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
            counts.contexts += 1
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
        let taken = state.withLock { state -> (scenes: [Scene], buffers: [ALuint], cache: [String: Buffer])? in
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
                    al.freeing {
                        taken.buffers.withUnsafeBufferPointer { ids in
                            alDeleteBuffers(ALsizei(ids.count), ids.baseAddress)
                        }
                    }
                }
                LiveObjects.buffers.subtract(taken.buffers.count, ordering: .relaxed)
            }
            resourceContext.withLock { $0.destroy() }
            LiveObjects.contexts.subtract(1, ordering: .relaxed)
            alcCloseDevice(handle.raw)
            LiveObjects.devices.subtract(1, ordering: .relaxed)
        }
        withExtendedLifetime(taken.cache) {}
    }

    /// Pauses or resumes a real output's mixing (ALC_SOFT_pause_device); used by the session
    /// center when no session may sound. Loopback devices only mix when rendered.
    func setOutputPaused(_ paused: Bool) {
        if let desktop { return desktop.setPaused(paused) }
        guard kind == .output, !isClosed, alcIsExtensionPresent(handle.raw, "ALC_SOFT_pause_device") != 0 else { return }
        if paused { alcDevicePauseSOFT(handle.raw) } else { alcDeviceResumeSOFT(handle.raw) }
        // An open device with the extension never refuses: a failure is an OpenAL bug, counted.
        do { try OpenAL.checkALC(handle.raw, paused ? "alcDevicePauseSOFT" : "alcDeviceResumeSOFT") } catch {
            UnexpectedOpenALErrors.record(error)
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
    func sceneClosed(_ scene: Scene) {
        let id = ObjectIdentifier(scene)
        state.withLock { state in state.scenes.removeAll { $0.id == id } }
    }

    static func attributes(kind: Kind, sampleRate: Int, layout: ChannelLayout, hrtf: Bool?, hrtfID: Int?,
                           budget: Int) -> [ALCint] {
        var list: [ALCint] = [ALC_MONO_SOURCES, ALCint(budget), ALC_STEREO_SOURCES, 0, ALC_MAX_AUXILIARY_SENDS, 4]
        if kind != .output {
            list += [ALC_FORMAT_CHANNELS_SOFT, layout.alcValue, ALC_FORMAT_TYPE_SOFT, ALC_FLOAT_SOFT,
                     ALC_FREQUENCY, ALCint(sampleRate), ALC_OUTPUT_LIMITER_SOFT, ALC_FALSE]
        }
        if let hrtf {
            list += [ALC_HRTF_SOFT, hrtf ? ALC_TRUE : ALC_FALSE]
            if let hrtfID { list += [ALC_HRTF_ID_SOFT, ALCint(hrtfID)] }
        }
        return list + [0]
    }

    static func hrtfNames(_ device: OpaquePointer) -> [String] {
        guard alcIsExtensionPresent(device, "ALC_SOFT_HRTF") != 0 else { return [] }
        var count: ALCint = 0
        alcGetIntegerv(device, ALC_NUM_HRTF_SPECIFIERS_SOFT, 1, &count)
        return (0..<max(0, Int(count))).compactMap { index in
            alcGetStringiSOFT(device, ALC_HRTF_SPECIFIER_SOFT, ALCsizei(index)).map { String(cString: $0) }
        }
    }

    static func splitDoubleNullList(_ list: UnsafePointer<ALCchar>?) -> [String] {
        guard var cursor = list else { return [] }
        var names: [String] = []
        while cursor.pointee != 0 {
            let name = String(cString: cursor)
            names.append(name)
            cursor += name.utf8.count + 1
        }
        return names
    }
}
